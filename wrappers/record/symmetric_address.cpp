#include "record/symmetric_address.h"

#include <dlfcn.h>

#include <string_view>

namespace collwrap::tracer {

std::uint64_t symmetric_address_id(const volatile void* address) noexcept {
  const auto value = reinterpret_cast<std::uintptr_t>(address);
  Dl_info info{};
  if (dladdr(const_cast<const void*>(address), &info) == 0 || info.dli_fbase == nullptr) {
    return value;
  }
  // Module-relative offset, tagged by the module's name so that objects of different
  // libraries stay apart (FNV-1a of the name in the top 16 bits).
  std::uint64_t hash = 1469598103934665603ull;
  for (char c : std::string_view(info.dli_fname ? info.dli_fname : "")) {
    hash = (hash ^ std::uint8_t(c)) * 1099511628211ull;
  }
  const auto offset = value - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  return (hash << 48) ^ offset;
}

}  // namespace collwrap::tracer
