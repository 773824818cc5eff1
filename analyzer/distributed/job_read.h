// Reading one archive with the processes of an MPI job: each process reads the events of its
// share of the locations (split_locations), in parallel with the others, and sends them to
// process 0, which finishes the whole trace exactly as read_trace() would. The analysis then
// runs on process 0.
#pragma once

#include <exception>
#include <optional>
#include <string>

#include "mpi_job.h"
#include "trace_reader.h"

namespace collwrap {

// Process 0 gets the finished trace; the others get nullopt once they have sent their share.
// `progress` is called on process 0 only, for its own share.
//
// A failure while reading on any process (a path that is not an archive, damaged definitions,
// out of memory) ends the read on every process alike: each throws what the failing process
// caught (TraceUsageError, TraceReadError, or std::runtime_error), its message led by which
// process failed, so that every process leaves with the same exit status and none waits for
// another. A failure while the shares travel ends the whole job (MPI_Abort) after a message.
std::optional<Trace> read_trace_in_job(const MpiJob& job, const std::string& path,
                                       const ReadOptions& options, const ReadProgress& progress);

// Only the first step: every process reads its share (read_locations with its process
// number), failures settled as above.
LocationsRead read_share_in_job(const MpiJob& job, const std::string& path,
                                const ReadOptions& options, const ReadProgress& progress);

// For a failure after reading, while processes send each other what they hold (out of memory,
// damaged bytes): says which process could not do what, and ends the whole job (MPI_Abort),
// since the others wait for messages that will not come.
[[noreturn]] void end_job_after(const MpiJob& job, const std::string& doing,
                                const std::exception& e);

}  // namespace collwrap
