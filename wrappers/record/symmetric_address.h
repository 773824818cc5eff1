// An id for a symmetric object (an OpenSHMEM lock, a UPC lock) that is the same on every
// process: such objects have different addresses in the processes of a position-independent
// executable, but the same offset from the start of their module. Objects outside any module
// (OpenSHMEM's symmetric heap) keep their address, which the runtime maps alike everywhere.
#pragma once

#include <cstdint>

namespace collwrap::tracer {

std::uint64_t symmetric_address_id(const volatile void* address) noexcept;

}  // namespace collwrap::tracer
