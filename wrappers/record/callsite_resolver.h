// Resolution of return addresses to file, line and function, with libdw over the process's
// own memory map: dwfl applies each module's load bias, so PIE executables and shared
// libraries resolve alike. Runs at finalize (or when writing a sidecar), never on the hot path.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "record/callsite_table.h"
#include "record/local_definitions.h"

namespace collwrap::tracer {

class CallSiteResolver {
 public:
  CallSiteResolver();
  ~CallSiteResolver();
  CallSiteResolver(const CallSiteResolver&) = delete;
  CallSiteResolver& operator=(const CallSiteResolver&) = delete;

  // The source of the call instruction before `return_address`. Without debug information:
  // the function from the symbol table, the object's path as file, line 0.
  ResolvedFrame resolve(std::uintptr_t return_address);

 private:
  struct Session;
  std::unique_ptr<Session> session_;
  std::unordered_map<std::uintptr_t, ResolvedFrame> cache_;
};

// Resolves every chain of the table (index = CallSiteRef).
std::vector<LocalCallSite> resolve_callsites(const std::vector<FrameChain>& chains);

// The chains with addresses only ("0x<address>", no file, line 0): what can be saved at once
// when there may be no time left to read debug information.
std::vector<LocalCallSite> unresolved_callsites(const std::vector<FrameChain>& chains);

}  // namespace collwrap::tracer
