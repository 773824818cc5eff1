#include "mpi/fortran_args.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "mpi/comms.h"
#include "mpi/semantics.h"

// The Fortran sentinels are common blocks of the MPI library; their address is the sentinel.
// Open MPI defines them in every mangling its Fortran compiler might use and compares against
// all of them (OMPI_IS_FORTRAN_SENTINEL); so do we. Weak: a build defines only some, and a
// program that never loads the Fortran bindings still loads libcollwrap.so.
extern "C" {
#define COLLWRAP_SENTINEL(lower, upper)        \
  extern char lower __attribute__((weak));     \
  extern char lower##_ __attribute__((weak));  \
  extern char lower##__ __attribute__((weak)); \
  extern char upper __attribute__((weak));
COLLWRAP_SENTINEL(mpi_fortran_in_place, MPI_FORTRAN_IN_PLACE)
COLLWRAP_SENTINEL(mpi_fortran_bottom, MPI_FORTRAN_BOTTOM)
COLLWRAP_SENTINEL(mpi_fortran_status_ignore, MPI_FORTRAN_STATUS_IGNORE)
COLLWRAP_SENTINEL(mpi_fortran_statuses_ignore, MPI_FORTRAN_STATUSES_IGNORE)
#undef COLLWRAP_SENTINEL
}

namespace collwrap::tracer {
namespace {

bool is_one_of(const void* p, const void* a, const void* b, const void* c, const void* d) {
  return p != nullptr && (p == a || p == b || p == c || p == d);
}

}  // namespace

constinit thread_local bool t_inside_fortran_call __attribute__((tls_model("initial-exec"))) = false;

FortranEntry resolve_fortran_entry(const char* const* names) noexcept {
  for (; *names; ++names) {
    // RTLD_NEXT: the definition the program would have called without libcollwrap.so, i.e. the
    // one in its own MPI library (libmpi_mpifh, libmpi_usempif08), never our wrapper.
    if (void* entry = dlsym(RTLD_NEXT, *names)) return reinterpret_cast<FortranEntry>(entry);
  }
  return nullptr;
}

void report_missing_fortran_entry(const char* name) noexcept {
  static std::atomic<bool> reported{false};
  if (reported.exchange(true)) return;
  std::fprintf(stderr,
               "collwrap: the MPI library has no Fortran entry point %s; the call fails with "
               "MPI_ERR_INTERN. Run the program without libcollwrap.so preloaded\n",
               name);
}

bool is_fortran_in_place(const void* p) noexcept {
  return is_one_of(p, &mpi_fortran_in_place, &mpi_fortran_in_place_, &mpi_fortran_in_place__,
                   &MPI_FORTRAN_IN_PLACE);
}

bool is_fortran_bottom(const void* p) noexcept {
  return is_one_of(p, &mpi_fortran_bottom, &mpi_fortran_bottom_, &mpi_fortran_bottom__,
                   &MPI_FORTRAN_BOTTOM);
}

bool is_fortran_status_ignore(const void* p) noexcept {
  return is_one_of(p, &mpi_fortran_status_ignore, &mpi_fortran_status_ignore_,
                   &mpi_fortran_status_ignore__, &MPI_FORTRAN_STATUS_IGNORE);
}

bool is_fortran_statuses_ignore(const void* p) noexcept {
  return is_one_of(p, &mpi_fortran_statuses_ignore, &mpi_fortran_statuses_ignore_,
                   &mpi_fortran_statuses_ignore__, &MPI_FORTRAN_STATUSES_IGNORE);
}

const void* c_buffer(const void* fortran_buffer) noexcept {
  if (is_fortran_in_place(fortran_buffer)) return MPI_IN_PLACE;
  if (is_fortran_bottom(fortran_buffer)) return MPI_BOTTOM;
  return fortran_buffer;
}

std::string fortran_string(const char* chars, std::size_t length) {
  if (!chars) return {};
  while (length > 0 && chars[length - 1] == ' ') --length;
  // A C string passed where Fortran would pass a padded one still ends at its NUL.
  const void* nul = std::memchr(chars, '\0', length);
  if (nul) length = static_cast<std::size_t>(static_cast<const char*>(nul) - chars);
  return std::string(chars, length);
}

int alltoallw_type_count(MPI_Comm comm, TypeArrayUse use) noexcept {
  try {
    const CommEntry* c = comm_entry(semantics(), comm);
    if (!c) return 0;
    switch (use) {
      case TypeArrayUse::Peers:
        return c->inter ? c->remote_size : c->size;
      case TypeArrayUse::InNeighbors:
        return static_cast<int>(c->in_neighbors.size());
      case TypeArrayUse::OutNeighbors:
        return static_cast<int>(c->out_neighbors.size());
    }
  } catch (...) {
  }
  return 0;
}

FortranStatuses::FortranStatuses(void* caller, int capacity) noexcept
    : capacity_(capacity > 0 ? static_cast<std::size_t>(capacity) : 0),
      own_(is_fortran_status_ignore(caller) || is_fortran_statuses_ignore(caller)
               ? capacity_ * kFortranStatusSize
               : 0),
      c_(capacity_),
      fortran_(caller) {
  if (own_.size() && own_.size() == capacity_ * kFortranStatusSize) fortran_ = own_.data();
}

void FortranStatuses::refresh() noexcept {
  if (is_fortran_status_ignore(fortran_) || is_fortran_statuses_ignore(fortran_)) {
    // No memory for our own statuses: the handlers see empty ones rather than garbage.
    if (c_.size()) std::memset(static_cast<void*>(c_.data()), 0, c_.size() * sizeof(MPI_Status));
    return;
  }
  const auto* f = static_cast<const MPI_Fint*>(fortran_);
  for (std::size_t i = 0; i < c_.size(); ++i) PMPI_Status_f2c(f + i * kFortranStatusSize, &c_[i]);
}

}  // namespace collwrap::tracer
