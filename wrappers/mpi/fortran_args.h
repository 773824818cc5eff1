// The Fortran bindings' side of the wrappers: what the generated Fortran wrappers
// (gen_wrappers.py, mpi_fortran_wrappers.cpp) use to hand Fortran arguments to the same semantic
// handlers as the C wrappers.
//
// A Fortran wrapper forwards its arguments unchanged to the MPI library's own Fortran profiling
// entry point (pmpi_send_, pmpi_send_f08_, ...), which understands the Fortran sentinels
// (MPI_IN_PLACE, MPI_BOTTOM, MPI_STATUS(ES)_IGNORE). The handlers get C views of the arguments
// they read: handles through the library's _f2c functions, buffers with the Fortran sentinels
// replaced by the C ones, statuses through MPI_Status_f2c, 1-based indices made 0-based, blank
// padded strings trimmed. Nothing here writes into the caller's arguments.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

#include "mpi/small_buffer.h"

namespace collwrap::tracer {

static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays are read as int arrays");
static_assert(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0);
// MPI_STATUS_SIZE of the Fortran bindings: Open MPI's Fortran status is the C one, as integers.
inline constexpr std::size_t kFortranStatusSize = sizeof(MPI_Status) / sizeof(MPI_Fint);

// --- Nesting
// Set while a Fortran wrapper runs. A C wrapper (or another Fortran wrapper) reached from inside
// it records nothing and only forwards: the Fortran call is recorded once, by its own wrapper.
// (Open MPI's Fortran entry points call PMPI_ functions and pmpi_*_ entry points, so this does
// not happen with it; other MPI libraries may call the MPI_ names.)
// Inline and constinit: every C wrapper asks, so it must cost one thread-local load, without a
// call or a thread-local initialization check.
extern constinit thread_local bool t_inside_fortran_call __attribute__((tls_model("initial-exec")));
inline bool inside_fortran_call() noexcept {
  return t_inside_fortran_call;
}

class FortranCallScope {
 public:
  FortranCallScope() noexcept { t_inside_fortran_call = true; }
  ~FortranCallScope() { t_inside_fortran_call = false; }
  FortranCallScope(const FortranCallScope&) = delete;
  FortranCallScope& operator=(const FortranCallScope&) = delete;
};

// --- The MPI library's Fortran entry points
// The first of `names` (a null-terminated list of manglings of one pmpi_ entry point) that the
// libraries loaded after libcollwrap.so define, looked up once by the generated wrapper and
// cached there. nullptr if none: then the wrapper reports MPI_ERR_INTERN (through ierror when
// the caller passed one) without calling anything, which only happens if the program calls a
// Fortran MPI function its MPI library does not have.
using FortranEntry = void (*)();
FortranEntry resolve_fortran_entry(const char* const* names) noexcept;
// One `collwrap:` line on stderr for a missing entry point (once per process).
void report_missing_fortran_entry(const char* name) noexcept;

// --- Sentinels
bool is_fortran_in_place(const void* p) noexcept;
bool is_fortran_bottom(const void* p) noexcept;
bool is_fortran_status_ignore(const void* p) noexcept;
bool is_fortran_statuses_ignore(const void* p) noexcept;

// A Fortran choice buffer as the C handlers see it: MPI_IN_PLACE and MPI_BOTTOM for the Fortran
// sentinels, the address itself otherwise.
const void* c_buffer(const void* fortran_buffer) noexcept;

// --- Scalars and strings
inline int fortran_int(const void* p) noexcept {
  return static_cast<int>(*static_cast<const MPI_Fint*>(p));
}
// A 1-based Fortran index as C's 0-based one (MPI_UNDEFINED stays).
inline int c_index(int fortran_index) noexcept {
  return fortran_index == MPI_UNDEFINED ? MPI_UNDEFINED : fortran_index - 1;
}
// A blank-padded Fortran CHARACTER argument of `length` characters, trailing blanks removed.
std::string fortran_string(const char* chars, std::size_t length);

// --- Handle arrays
// C handles of `n` Fortran handles (requests of MPI_Waitall, datatypes of MPI_Alltoallw), read
// again with refresh() after the PMPI call when they are outputs.
template <class Handle, Handle (*F2C)(MPI_Fint)>
class FortranHandles {
 public:
  FortranHandles(const void* fortran, int n) noexcept
      : fortran_(static_cast<const MPI_Fint*>(fortran)), c_(n > 0 && fortran ? n : 0) {
    refresh();
  }
  void refresh() noexcept {
    for (std::size_t i = 0; i < c_.size(); ++i) c_[i] = F2C(fortran_[i]);
  }
  // nullptr when there are none (or no memory): the handlers then record without them.
  Handle* get() noexcept { return c_.size() ? c_.data() : nullptr; }

 private:
  const MPI_Fint* fortran_;
  SmallBuffer<Handle, 8> c_;
};

using FortranRequests = FortranHandles<MPI_Request, PMPI_Request_f2c>;
using FortranTypes = FortranHandles<MPI_Datatype, PMPI_Type_f2c>;

// How many datatypes an MPI_(Neighbor_)alltoallw reads per direction: the communicator's
// peers, or its in- and out-neighbors. 0 when the communicator is unknown.
enum class TypeArrayUse : std::uint8_t { Peers, InNeighbors, OutNeighbors };
int alltoallw_type_count(MPI_Comm comm, TypeArrayUse use) noexcept;

// Converts a 1-based Fortran index array (MPI_Waitsome's array_of_indices) after the call.
class FortranIndices {
 public:
  FortranIndices(const void* fortran, int capacity) noexcept
      : fortran_(static_cast<const MPI_Fint*>(fortran)), c_(capacity > 0 ? capacity : 0) {}
  void refresh(int outcount) noexcept {
    for (std::size_t i = 0; i < c_.size() && static_cast<int>(i) < outcount; ++i) {
      c_[i] = c_index(fortran_[i]);
    }
  }
  int* get() noexcept { return c_.size() ? c_.data() : nullptr; }

 private:
  const MPI_Fint* fortran_;
  SmallBuffer<int, 8> c_;
};

// --- Statuses
// The status argument a Fortran wrapper passes on, and its C view for the handlers. When the
// caller passed MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE, the MPI library writes into our own
// array instead (the handlers need the source, tag and size of receives); the caller's sentinel
// is never written. After the call, refresh() converts the first `n` statuses to C.
class FortranStatuses {
 public:
  FortranStatuses(void* caller, int capacity) noexcept;
  FortranStatuses(const FortranStatuses&) = delete;
  FortranStatuses& operator=(const FortranStatuses&) = delete;

  // What to pass to the pmpi_ entry point.
  void* fortran() noexcept { return fortran_; }
  // What to give the handlers: never MPI_STATUS(ES)_IGNORE unless no memory was available.
  MPI_Status* c() noexcept { return c_.size() ? c_.data() : MPI_STATUSES_IGNORE; }
  void refresh() noexcept;

 private:
  std::size_t capacity_;
  SmallBuffer<MPI_Fint, 8 * kFortranStatusSize> own_;
  SmallBuffer<MPI_Status, 8> c_;
  void* fortran_;
};

}  // namespace collwrap::tracer
