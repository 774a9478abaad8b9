// Pre-load check of a plugin file: the ELF header, program headers and every loadable segment must
// lie inside the file, or dlopen would map pages past its end and the host would die of SIGBUS.
#include "host/plugin/elf_check.h"

#include <elf.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace jobhost {
namespace fs = std::filesystem;
namespace {

// True when [offset, offset + length) reaches past `size` (written so garbage cannot overflow).
bool beyond(uint64_t offset, uint64_t length, uintmax_t size) {
  return length > size || offset > size - length;
}

std::string truncated(uintmax_t size, uint64_t needed, const std::string& what) {
  return "is truncated: it has " + std::to_string(size) + " bytes but its " + what + " end at byte " +
         std::to_string(needed) + "; copy the plugin again or rebuild it";
}

}  // namespace

std::optional<std::string> elfLoadProblem(const std::string& file) {
  std::error_code ec;
  if (fs::is_directory(file, ec)) return "is a directory, not a plugin file; name the plugin's .so file";
  const uintmax_t size = fs::file_size(file, ec);
  if (ec) return "cannot be read (" + ec.message() + "); check the file and its permissions";
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::string("cannot be opened (") + std::strerror(errno) + "); check its permissions";

  Elf64_Ehdr header{};
  in.read(reinterpret_cast<char*>(&header), sizeof header);
  const auto got = static_cast<uintmax_t>(in.gcount());
  if (got < SELFMAG || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) return std::nullopt;
  if (got < EI_CLASS + 1 || header.e_ident[EI_CLASS] != ELFCLASS64) return std::nullopt;
  if (got < sizeof header) return truncated(size, sizeof header, "ELF header would");

  const uint64_t phBytes = uint64_t{header.e_phnum} * header.e_phentsize;
  if (beyond(header.e_phoff, phBytes, size)) return truncated(size, header.e_phoff + phBytes, "program headers");
  if (header.e_phentsize != sizeof(Elf64_Phdr)) return std::nullopt;  // dlopen names this itself
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  in.seekg(static_cast<std::streamoff>(header.e_phoff));
  in.read(reinterpret_cast<char*>(segments.data()),
          static_cast<std::streamsize>(segments.size() * sizeof(Elf64_Phdr)));
  if (!in) return "could not be read to the end of its program headers; check the file";
  for (const auto& s : segments) {
    if (s.p_type != PT_LOAD && s.p_type != PT_DYNAMIC) continue;
    if (beyond(s.p_offset, s.p_filesz, size)) return truncated(size, s.p_offset + s.p_filesz, "loadable segments");
  }
  const uint64_t shBytes = uint64_t{header.e_shnum} * header.e_shentsize;
  if (header.e_shoff != 0 && beyond(header.e_shoff, shBytes, size))
    return truncated(size, header.e_shoff + shBytes, "section headers");
  return std::nullopt;
}

}  // namespace jobhost
