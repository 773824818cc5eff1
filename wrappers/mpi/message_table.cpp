#include "mpi/message_table.h"

namespace collwrap::tracer {

void MessageTable::add(MPI_Message message, const CommEntry* comm) {
  std::lock_guard lock(mutex_);
  messages_.insert_or_assign(message, comm);
}

const CommEntry* MessageTable::take(MPI_Message message) {
  std::lock_guard lock(mutex_);
  const auto it = messages_.find(message);
  if (it == messages_.end()) return nullptr;
  const CommEntry* comm = it->second;
  messages_.erase(it);
  return comm;
}

}  // namespace collwrap::tracer
