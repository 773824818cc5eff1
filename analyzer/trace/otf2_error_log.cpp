#include "otf2_error_log.h"

#include <otf2/otf2.h>

#include <cstdarg>
#include <cstdio>

namespace collwrap {
namespace {

thread_local Otf2ErrorLog* current_log = nullptr;

OTF2_ErrorCode collect(void*, const char*, std::uint64_t, const char*, OTF2_ErrorCode code,
                       const char* format, va_list arguments) {
  if (code == OTF2_ERROR_INTERRUPTED_BY_CALLBACK || !current_log) return code;
  std::string message = std::string("OTF2: ") + OTF2_Error_GetDescription(code);
  if (format && *format) {
    char text[256];
    va_list copy;
    va_copy(copy, arguments);
    std::vsnprintf(text, sizeof text, format, copy);
    va_end(copy);
    message += std::string(": ") + text;
  }
  current_log->add(std::move(message));
  return code;
}

}  // namespace

Otf2ErrorCallback::Otf2ErrorCallback() : previous_(OTF2_Error_RegisterCallback(collect, nullptr)) {}

Otf2ErrorCallback::~Otf2ErrorCallback() {
  OTF2_Error_RegisterCallback(previous_, nullptr);
}

Otf2ErrorLog::Otf2ErrorLog() : outer_(current_log) {
  current_log = this;
}

Otf2ErrorLog::~Otf2ErrorLog() {
  current_log = outer_;
}

std::string Otf2ErrorLog::summary() const {
  if (messages_.empty()) return {};
  std::string s = messages_.front();
  if (messages_.size() > 1) s += " (and " + std::to_string(messages_.size() - 1) + " more)";
  return s;
}

}  // namespace collwrap
