// The errors OTF2 reports while the analyzer reads an archive.
//
// OTF2 reports an error twice: through a process-wide error callback (by default it prints to
// stderr) and as the status a function returns. Some errors reach only the callback: when
// decoding a location's id mappings fails to allocate (a damaged size asking for gigabytes),
// OTF2 reports it and then reads on as if nothing had happened. So the reader installs its own
// callback for the whole read (Otf2ErrorCallback), and each step of the read collects, on its
// thread, what OTF2 reported meanwhile (Otf2ErrorLog), to name the damaged file in a warning or
// to stop.
#pragma once

#include <otf2/OTF2_ErrorCodes.h>

#include <string>
#include <vector>

namespace collwrap {

// Installs the collecting callback; restores the previous one when destroyed. Process-wide:
// the analyzer reads one archive at a time.
class Otf2ErrorCallback {
 public:
  Otf2ErrorCallback();
  ~Otf2ErrorCallback();
  Otf2ErrorCallback(const Otf2ErrorCallback&) = delete;
  Otf2ErrorCallback& operator=(const Otf2ErrorCallback&) = delete;

 private:
  OTF2_ErrorCallback previous_;
};

// Collects the errors OTF2 reports on the constructing thread while it exists (the innermost
// log of a thread collects). Errors that only say a callback of ours interrupted the read are
// left out: those are the reader's own decisions.
class Otf2ErrorLog {
 public:
  Otf2ErrorLog();
  ~Otf2ErrorLog();
  Otf2ErrorLog(const Otf2ErrorLog&) = delete;
  Otf2ErrorLog& operator=(const Otf2ErrorLog&) = delete;

  bool empty() const { return messages_.empty(); }
  // The first error, and how many followed: "OTF2: Memory allocation failed: ... (and 2 more)".
  std::string summary() const;
  void add(std::string message) { messages_.push_back(std::move(message)); }

 private:
  Otf2ErrorLog* outer_;
  std::vector<std::string> messages_;
};

}  // namespace collwrap
