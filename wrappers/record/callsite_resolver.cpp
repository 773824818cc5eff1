#include "record/callsite_resolver.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace collwrap::tracer {

struct CallSiteResolver::Session {
  Dwfl_Callbacks callbacks{};
  Dwfl* dwfl = nullptr;

  Session() {
    callbacks.find_elf = dwfl_linux_proc_find_elf;
    callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    dwfl = dwfl_begin(&callbacks);
    if (dwfl == nullptr) return;
    if (dwfl_linux_proc_report(dwfl, getpid()) != 0 ||
        dwfl_report_end(dwfl, nullptr, nullptr) != 0) {
      dwfl_end(dwfl);
      dwfl = nullptr;
    }
  }
  ~Session() {
    if (dwfl) dwfl_end(dwfl);
  }
};

namespace {

// A compiler given a relative source path (ccache with CCACHE_BASEDIR, -fdebug-prefix-map)
// records it relative to the compilation directory; join the two so every call site names
// its file the same way.
std::string absolute_source(const char* source, const char* comp_dir) {
  std::filesystem::path path(source);
  if (path.is_absolute() || comp_dir == nullptr) return source;
  return (std::filesystem::path(comp_dir) / path).lexically_normal().string();
}

std::string demangle(const char* name) {
  if (name == nullptr) return {};
  int status = 0;
  char* plain = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || plain == nullptr) return name;
  std::string result = plain;
  std::free(plain);
  return result;
}

const char* linkage_name_of(Dwarf_Die* die) {
  Dwarf_Attribute attr;
  for (int name : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
    if (dwarf_attr_integrate(die, name, &attr) != nullptr) return dwarf_formstring(&attr);
  }
  return nullptr;
}

// The innermost function (inlined or not) containing `pc`, from the CU's scopes.
bool describe_enclosing_function(Dwfl_Module* module, Dwarf_Addr pc, ResolvedFrame& frame) {
  Dwarf_Addr bias = 0;
  Dwarf_Die* cu = dwfl_module_addrdie(module, pc, &bias);
  if (cu == nullptr) return false;
  Dwarf_Die* scopes = nullptr;
  int n = dwarf_getscopes(cu, pc - bias, &scopes);
  bool found = false;
  for (int i = 0; i < n && !found; ++i) {
    int tag = dwarf_tag(&scopes[i]);
    if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine) continue;
    const char* linkage = linkage_name_of(&scopes[i]);
    const char* name = dwarf_diename(&scopes[i]);
    if (linkage == nullptr && name == nullptr) continue;
    frame.function = linkage ? demangle(linkage) : name;
    frame.linkage_name = linkage ? linkage : name;
    if (const char* decl_file = dwarf_decl_file(&scopes[i])) frame.function_file = decl_file;
    int decl_line = 0;
    if (dwarf_decl_line(&scopes[i], &decl_line) == 0 && decl_line > 0) {
      frame.function_line = std::uint32_t(decl_line);
    }
    found = true;
  }
  std::free(scopes);
  return found;
}

}  // namespace

CallSiteResolver::CallSiteResolver() : session_(std::make_unique<Session>()) {}
CallSiteResolver::~CallSiteResolver() = default;

ResolvedFrame CallSiteResolver::resolve(std::uintptr_t return_address) {
  if (auto it = cache_.find(return_address); it != cache_.end()) return it->second;

  ResolvedFrame frame;
  frame.function = "??";
  // The return address points after the call; the call instruction's line is at address - 1.
  Dwarf_Addr pc = return_address - 1;
  Dwfl_Module* module = session_->dwfl ? dwfl_addrmodule(session_->dwfl, pc) : nullptr;
  if (module != nullptr) {
    // For a process, the module name is the mapped file's path.
    Dwarf_Addr module_start = 0;
    const char* module_name = dwfl_module_info(module, nullptr, &module_start, nullptr, nullptr,
                                               nullptr, nullptr, nullptr);
    frame.file = module_name ? module_name : "";
    // Without a symbol, "<object>+0x<offset>" still lets a user find the code with addr2line.
    char offset[32];
    std::snprintf(offset, sizeof offset, "+0x%llx",
                  static_cast<unsigned long long>(pc - module_start));
    frame.function = frame.file.substr(frame.file.rfind('/') + 1) + offset;

    GElf_Sym symbol;
    GElf_Off symbol_offset = 0;
    if (const char* sym =
            dwfl_module_addrinfo(module, pc, &symbol_offset, &symbol, nullptr, nullptr, nullptr)) {
      frame.function = demangle(sym);
      frame.linkage_name = sym;
    }
    describe_enclosing_function(module, pc, frame);

    if (Dwfl_Line* line = dwfl_module_getsrc(module, pc)) {
      int line_number = 0;
      if (const char* source =
              dwfl_lineinfo(line, nullptr, &line_number, nullptr, nullptr, nullptr)) {
        const char* comp_dir = dwfl_line_comp_dir(line);
        frame.file = absolute_source(source, comp_dir);
        frame.line = line_number > 0 ? std::uint32_t(line_number) : 0;
        if (!frame.function_file.empty()) {
          frame.function_file = absolute_source(frame.function_file.c_str(), comp_dir);
        }
      }
    }
  }
  if (frame.linkage_name.empty()) frame.linkage_name = frame.function;
  if (frame.function_file.empty()) frame.function_file = frame.file;
  cache_.emplace(return_address, frame);
  return frame;
}

namespace {

template <typename Describe>
std::vector<LocalCallSite> describe_chains(const std::vector<FrameChain>& chains,
                                           Describe describe) {
  std::vector<LocalCallSite> result;
  result.reserve(chains.size());
  for (std::size_t id = 0; id < chains.size(); ++id) {
    LocalCallSite site;
    site.id = CallSiteRef(id);
    for (std::uintptr_t address : chains[id]) site.frames.push_back(describe(address));
    result.push_back(std::move(site));
  }
  return result;
}

}  // namespace

std::vector<LocalCallSite> resolve_callsites(const std::vector<FrameChain>& chains) {
  CallSiteResolver resolver;
  return describe_chains(chains, [&](std::uintptr_t a) { return resolver.resolve(a); });
}

std::vector<LocalCallSite> unresolved_callsites(const std::vector<FrameChain>& chains) {
  return describe_chains(chains, [](std::uintptr_t address) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(address));
    return ResolvedFrame{hex, hex, "", 0, "", 0};
  });
}

}  // namespace collwrap::tracer
