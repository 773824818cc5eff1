// The event log (wrappers/record/event_log.h) round trip: every ThreadRecorder method, recorded
// by a single process through the whole recording layer, is read back by OTF2's own reader with
// the same values, in the same order; a log that fills up many times loses nothing and marks
// each write-out with one BufferFlush record; timestamps that step back are clamped.
#include <gtest/gtest.h>
#include <otf2/otf2.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "record/location_id.h"
#include "record/recorder.h"
#include "single_process.h"

namespace collwrap::tracer {
namespace {

enum Region : std::uint32_t { kInit, kCall, kFinalize };
const RegionInfo kRegions[] = {{"test_init", OTF2_REGION_ROLE_FUNCTION},
                               {"test_call", OTF2_REGION_ROLE_FUNCTION},
                               {"test_finalize", OTF2_REGION_ROLE_FUNCTION}};
const RegionRef kFirst = register_regions(Paradigm::Shmem, kRegions);

constexpr std::uint64_t kPairs = 1'000'000;  // Enter/Leave pairs: 16 MB of log, 1 MiB log

// One read-back record: its name, raw timestamp, and arguments and attributes as text.
struct Read {
  std::string name;
  std::uint64_t time;
  std::string args;
};

struct Recorded {
  Ticks base = 0;  // the first timestamp of the scripted records
  std::vector<Read> records;
};

std::string attributes_text(OTF2_AttributeList* list) {
  std::ostringstream out;
  const std::uint32_t n = list ? OTF2_AttributeList_GetNumberOfElements(list) : 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    OTF2_AttributeRef id;
    OTF2_Type type;
    OTF2_AttributeValue value;
    OTF2_AttributeList_GetAttributeByIndex(list, i, &id, &type, &value);
    out << " @" << id << '=';
    if (type == OTF2_TYPE_INT32) out << value.int32;
    else out << value.uint32;  // UINT32 and CALLING_CONTEXT
  }
  return out.str();
}

// A reader callback for any record: formats every argument after the attribute list.
template <const char* Name, typename... Args>
OTF2_CallbackCode on_record(OTF2_LocationRef, OTF2_TimeStamp time, std::uint64_t, void* user,
                            OTF2_AttributeList* attributes, Args... args) {
  std::ostringstream out;
  ((out << ' ' << +args), ...);
  out << attributes_text(attributes);
  static_cast<std::vector<Read>*>(user)->push_back({Name, time, out.str()});
  return OTF2_CALLBACK_SUCCESS;
}

#define NAME(x) constexpr char k##x[] = #x
NAME(Enter); NAME(Leave); NAME(MpiSend); NAME(MpiIsend); NAME(MpiIsendComplete);
NAME(MpiIrecvRequest); NAME(MpiRecv); NAME(MpiIrecv); NAME(MpiRequestTest);
NAME(MpiRequestCancelled); NAME(MpiCollectiveBegin); NAME(MpiCollectiveEnd); NAME(NbcRequest);
NAME(NbcComplete); NAME(RmaWinCreate); NAME(RmaWinDestroy); NAME(RmaPut); NAME(RmaGet);
NAME(RmaAtomic); NAME(RmaOpCompleteBlocking); NAME(RmaOpCompleteNonBlocking);
NAME(RmaOpCompleteRemote); NAME(RmaCollectiveBegin); NAME(RmaCollectiveEnd); NAME(RmaGroupSync);
NAME(RmaRequestLock); NAME(RmaAcquireLock); NAME(RmaTryLock); NAME(RmaReleaseLock); NAME(RmaSync);
NAME(RmaWaitChange); NAME(BufferFlush);
#undef NAME

OTF2_EvtReaderCallbacks* every_record_callback() {
  OTF2_EvtReaderCallbacks* c = OTF2_EvtReaderCallbacks_New();
  OTF2_EvtReaderCallbacks_SetEnterCallback(c, on_record<kEnter, OTF2_RegionRef>);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(c, on_record<kLeave, OTF2_RegionRef>);
  OTF2_EvtReaderCallbacks_SetBufferFlushCallback(c, on_record<kBufferFlush, OTF2_TimeStamp>);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(
      c, on_record<kMpiSend, std::uint32_t, OTF2_CommRef, std::uint32_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(
      c, on_record<kMpiIsend, std::uint32_t, OTF2_CommRef, std::uint32_t, std::uint64_t,
                   std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(c,
                                                      on_record<kMpiIsendComplete, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(c, on_record<kMpiIrecvRequest, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(
      c, on_record<kMpiRecv, std::uint32_t, OTF2_CommRef, std::uint32_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(
      c, on_record<kMpiIrecv, std::uint32_t, OTF2_CommRef, std::uint32_t, std::uint64_t,
                   std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(c, on_record<kMpiRequestTest, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(
      c, on_record<kMpiRequestCancelled, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(c, on_record<kMpiCollectiveBegin>);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(
      c, on_record<kMpiCollectiveEnd, OTF2_CollectiveOp, OTF2_CommRef, std::uint32_t,
                   std::uint64_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(
      c, on_record<kNbcRequest, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
      c, on_record<kNbcComplete, OTF2_CollectiveOp, OTF2_CommRef, std::uint32_t, std::uint64_t,
                   std::uint64_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(c, on_record<kRmaWinCreate, OTF2_RmaWinRef>);
  OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(c, on_record<kRmaWinDestroy, OTF2_RmaWinRef>);
  OTF2_EvtReaderCallbacks_SetRmaPutCallback(
      c, on_record<kRmaPut, OTF2_RmaWinRef, std::uint32_t, std::uint64_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetRmaGetCallback(
      c, on_record<kRmaGet, OTF2_RmaWinRef, std::uint32_t, std::uint64_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(
      c, on_record<kRmaAtomic, OTF2_RmaWinRef, std::uint32_t, OTF2_RmaAtomicType, std::uint64_t,
                   std::uint64_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(
      c, on_record<kRmaOpCompleteBlocking, OTF2_RmaWinRef, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(
      c, on_record<kRmaOpCompleteNonBlocking, OTF2_RmaWinRef, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(
      c, on_record<kRmaOpCompleteRemote, OTF2_RmaWinRef, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(c, on_record<kRmaCollectiveBegin>);
  OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(
      c, on_record<kRmaCollectiveEnd, OTF2_CollectiveOp, OTF2_RmaSyncLevel, OTF2_RmaWinRef,
                   std::uint32_t, std::uint64_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(
      c, on_record<kRmaGroupSync, OTF2_RmaSyncLevel, OTF2_RmaWinRef, OTF2_GroupRef>);
  OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(
      c, on_record<kRmaRequestLock, OTF2_RmaWinRef, std::uint32_t, std::uint64_t, OTF2_LockType>);
  OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(
      c, on_record<kRmaAcquireLock, OTF2_RmaWinRef, std::uint32_t, std::uint64_t, OTF2_LockType>);
  OTF2_EvtReaderCallbacks_SetRmaTryLockCallback(
      c, on_record<kRmaTryLock, OTF2_RmaWinRef, std::uint32_t, std::uint64_t, OTF2_LockType>);
  OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(
      c, on_record<kRmaReleaseLock, OTF2_RmaWinRef, std::uint32_t, std::uint64_t>);
  OTF2_EvtReaderCallbacks_SetRmaSyncCallback(
      c, on_record<kRmaSync, OTF2_RmaWinRef, std::uint32_t, OTF2_RmaSyncType>);
  OTF2_EvtReaderCallbacks_SetRmaWaitChangeCallback(c, on_record<kRmaWaitChange, OTF2_RmaWinRef>);
  return c;
}

// The scripted records, one of each kind with distinct values, at base + 1, base + 2, ...
// Returns the expected read-back text of each, in order.
std::vector<Read> record_script(ThreadRecorder& r, Ticks base) {
  const RegionRef call = kFirst + kCall;
  Ticks t = base;
  r.enter(++t, call, 7);
  r.mpi_send(++t, 3, 11, 42, 1000);
  r.mpi_isend(++t, 4, 12, 43, 2000, 90);
  r.mpi_isend_complete(++t, 90);
  r.mpi_irecv_request(++t, 91);
  r.mpi_recv(++t, 5, 13, 44, 3000);
  r.mpi_irecv(++t, 6, 14, 45, 4000, 91);
  r.mpi_request_test(++t, 92);
  r.mpi_request_cancelled(++t, 93);
  r.mpi_collective_begin(++t);
  r.mpi_collective_end(++t, CollectiveOp::Allreduce, 15, kUndefinedRank, 8, 16);
  r.nbc_request(++t, 94);
  r.nbc_complete(++t, CollectiveOp::Bcast, 16, 2, 24, 32, 94);
  r.rma_win_create(++t, 21);
  r.rma_put(++t, 21, 1, 64, 301);
  r.rma_get(++t, 21, 2, 32, 302);
  r.rma_atomic(++t, 21, 3, RmaAtomicType::FetchAndAdd, 8, 9, 303);
  r.rma_op_complete_blocking(++t, 21, 301);
  r.rma_op_complete_non_blocking(++t, 21, 302);
  r.rma_op_complete_remote(++t, 21, 303);
  r.rma_collective_begin(++t);
  r.rma_collective_end(++t, CollectiveOp::Bcast, RmaSyncLevel::ProcessAndMemory, 21, 1, 40, 48,
                       0b1011);
  r.rma_collective_end(++t, CollectiveOp::Barrier, RmaSyncLevel::Memory, 22, kUndefinedRank, 0,
                       0);
  r.rma_group_sync(++t, RmaSyncLevel::Process, 21, 17);
  r.rma_request_lock(++t, 21, 1, 501, RmaLockType::Exclusive);
  r.rma_acquire_lock(++t, 21, 1, 501, RmaLockType::Exclusive);
  r.rma_try_lock(++t, 21, 2, 502, RmaLockType::Shared);
  r.rma_release_lock(++t, 21, 1, 501);
  r.rma_sync(++t, 21, 3, RmaSyncType::NotifyOut);
  r.rma_wait_change(++t, 21);
  r.rma_win_destroy(++t, 21);
  r.enter(++t, call, 7);  // the same call site: no attribute
  r.enter(++t, call, 8);  // another one
  r.enter_with_level(++t, call, 8, -3);
  r.enter_with_level(++t, call, 9, 2);
  r.leave(++t, call);
  r.leave(t - 5, call);  // a clock that stepped back: clamped to the previous record's time

  const std::string c = " " + std::to_string(call);
  const std::string undefined = " " + std::to_string(kUndefinedRank);
  std::vector<Read> expected = {
      {"Enter", 1, c + " @0=7"},
      {"MpiSend", 2, " 3 11 42 1000"},
      {"MpiIsend", 3, " 4 12 43 2000 90"},
      {"MpiIsendComplete", 4, " 90"},
      {"MpiIrecvRequest", 5, " 91"},
      {"MpiRecv", 6, " 5 13 44 3000"},
      {"MpiIrecv", 7, " 6 14 45 4000 91"},
      {"MpiRequestTest", 8, " 92"},
      {"MpiRequestCancelled", 9, " 93"},
      {"MpiCollectiveBegin", 10, ""},
      {"MpiCollectiveEnd", 11, " 11 15" + undefined + " 8 16"},
      {"NbcRequest", 12, " 94"},
      {"NbcComplete", 13, " 1 16 2 24 32 94"},
      {"RmaWinCreate", 14, " 21"},
      {"RmaPut", 15, " 21 1 64 301"},
      {"RmaGet", 16, " 21 2 32 302"},
      {"RmaAtomic", 17, " 21 3 5 8 9 303"},
      {"RmaOpCompleteBlocking", 18, " 21 301"},
      {"RmaOpCompleteNonBlocking", 19, " 21 302"},
      {"RmaOpCompleteRemote", 20, " 21 303"},
      {"RmaCollectiveBegin", 21, ""},
      {"RmaCollectiveEnd", 22, " 1 3 21 1 40 48 @2=11"},
      {"RmaCollectiveEnd", 23, " 0 2 22" + undefined + " 0 0"},
      {"RmaGroupSync", 24, " 1 21 17"},
      {"RmaRequestLock", 25, " 21 1 501 0"},
      {"RmaAcquireLock", 26, " 21 1 501 0"},
      {"RmaTryLock", 27, " 21 2 502 1"},
      {"RmaReleaseLock", 28, " 21 1 501"},
      {"RmaSync", 29, " 21 3 2"},
      {"RmaWaitChange", 30, " 21"},
      {"RmaWinDestroy", 31, " 21"},
      {"Enter", 32, c},
      {"Enter", 33, c + " @0=8"},
      {"Enter", 34, c + " @1=-3"},
      {"Enter", 35, c + " @0=9 @1=2"},
      {"Leave", 36, c},
      {"Leave", 36, c},
  };
  for (Read& e : expected) e.time += base;
  return expected;
}

// Records once for the whole suite: the script, then kPairs Enter/Leave pairs through a 1 MiB
// log, then finalize; and reads the archive back.
class EventLogTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() /
           ("collwrap-event-log-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    ::setenv("COLLWRAP_TRACE_DIR", dir_.c_str(), 1);
    ::setenv("COLLWRAP_BUFFER_MB", "1", 1);
    init_enter(kFirst + kInit, nullptr);
    init_leave(std::make_unique<SingleProcess>());
    ThreadRecorder* r = thread_recorder();
    ASSERT_NE(r, nullptr);
    base_ = now();
    expected_ = record_script(*r, base_);
    Ticks t = base_ + 1000;
    for (std::uint64_t i = 0; i < kPairs; ++i) {
      r->enter(++t, kFirst + kCall, 7);
      r->leave(++t, kFirst + kCall);
    }
    last_pair_time_ = t;
    finalize_enter(kFirst + kFinalize, nullptr);
    read_back();
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }

  static void read_back() {
    OTF2_Reader* reader = OTF2_Reader_Open((dir_ / "traces.otf2").c_str());
    ASSERT_NE(reader, nullptr);
    OTF2_Reader_SetSerialCollectiveCallbacks(reader);
    const OTF2_LocationRef location = pack_location_id(0, 0);
    OTF2_Reader_SelectLocation(reader, location);
    ASSERT_EQ(OTF2_Reader_OpenEvtFiles(reader), OTF2_SUCCESS);
    OTF2_EvtReader* events = OTF2_Reader_GetEvtReader(reader, location);
    ASSERT_NE(events, nullptr);
    OTF2_EvtReaderCallbacks* callbacks = every_record_callback();
    OTF2_Reader_RegisterEvtCallbacks(reader, events, callbacks, &read_);
    std::uint64_t n = 0;
    ASSERT_EQ(OTF2_Reader_ReadAllLocalEvents(reader, events, &n), OTF2_SUCCESS);
    OTF2_EvtReaderCallbacks_Delete(callbacks);
    OTF2_Reader_CloseEvtReader(reader, events);
    OTF2_Reader_CloseEvtFiles(reader);
    OTF2_Reader_Close(reader);
  }

  static inline std::filesystem::path dir_;
  static inline Ticks base_ = 0, last_pair_time_ = 0;
  static inline std::vector<Read> expected_, read_;
};

TEST_F(EventLogTest, EveryRecordKindReadsBackWithItsValues) {
  // The init region's Enter and Leave come first.
  auto first = std::find_if(read_.begin(), read_.end(),
                            [](const Read& r) { return r.time > base_ && r.time <= base_ + 100; });
  ASSERT_NE(first, read_.end());
  for (const Read& e : expected_) {
    ASSERT_NE(first, read_.end()) << "missing " << e.name;
    EXPECT_EQ(first->name, e.name);
    EXPECT_EQ(first->time - base_, e.time - base_) << e.name;
    EXPECT_EQ(first->args, e.args) << e.name;
    ++first;
  }
}

TEST_F(EventLogTest, AFullLogIsWrittenOutWithoutLosingARecord) {
  std::uint64_t enters = 0, leaves = 0, flushes = 0;
  std::uint64_t previous = 0;
  for (const Read& r : read_) {
    EXPECT_GE(r.time, previous) << r.name;
    previous = r.time;
    if (r.time <= base_ + 1000 || r.time > last_pair_time_) continue;
    if (r.name == "Enter") ++enters;
    if (r.name == "Leave") ++leaves;
    if (r.name == "BufferFlush") {
      ++flushes;
      std::uint64_t stop = std::stoull(r.args);
      EXPECT_GE(stop, r.time);
    }
  }
  EXPECT_EQ(enters, kPairs);
  EXPECT_EQ(leaves, kPairs);
  // 16 bytes per record, 2 * kPairs records, 1 MiB per write-out: one BufferFlush each.
  const std::uint64_t write_outs = 2 * kPairs * 16 / (1 << 20);
  EXPECT_GE(flushes, write_outs);
  EXPECT_LE(flushes, write_outs + 1);
}

}  // namespace
}  // namespace collwrap::tracer
