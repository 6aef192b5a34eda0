#include "elf_symbols.h"

#include <elf.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace pyasc_sim {

namespace {

struct FileCloser {
    void operator()(FILE *f) const { std::fclose(f); }
};

bool read_at(FILE *f, uint64_t off, void *dst, size_t n) {
    return std::fseek(f, static_cast<long>(off), SEEK_SET) == 0 && std::fread(dst, 1, n, f) == n;
}

// The ELF header and section headers of a 64-bit little-endian ELF file: "" when read, else why not.
std::string read_sections(FILE *f, Elf64_Ehdr *eh, std::vector<Elf64_Shdr> *sh) {
    if (!read_at(f, 0, eh, sizeof(*eh)) || std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file";
#if defined(__x86_64__)
    constexpr uint16_t kMachine = EM_X86_64;
#elif defined(__aarch64__)
    constexpr uint16_t kMachine = EM_AARCH64;
#else
    constexpr uint16_t kMachine = EM_NONE;
#endif
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
        (kMachine != EM_NONE && eh->e_machine != kMachine)) {
        return "an ELF file of another machine (ELF class " + std::to_string(eh->e_ident[EI_CLASS]) + ", machine " +
               std::to_string(eh->e_machine) + ")";
    }
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0) return "a truncated ELF file (no section headers)";
    sh->resize(eh->e_shnum);
    if (!read_at(f, eh->e_shoff, sh->data(), sh->size() * sizeof(Elf64_Shdr))) {
        return "a truncated ELF file (no section headers)";
    }
    return std::string();
}

// The entries of symbol table `s` and the bytes of its string table (NUL-terminated): false when `s` is no
// symbol table of sane size or the file is short.
bool read_symbols(FILE *f, const std::vector<Elf64_Shdr> &sh, const Elf64_Shdr &s, std::vector<Elf64_Sym> *syms,
                  std::vector<char> *names) {
    if (s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= sh.size()) return false;
    const size_t n = s.sh_size / sizeof(Elf64_Sym);
    const Elf64_Shdr &strtab = sh[s.sh_link];
    if (n > (1u << 24) || strtab.sh_size > (1u << 30)) return false;
    syms->resize(n);
    names->assign(strtab.sh_size + 1, '\0');
    return read_at(f, s.sh_offset, syms->data(), n * sizeof(Elf64_Sym)) &&
           read_at(f, strtab.sh_offset, names->data(), strtab.sh_size);
}

}  // namespace

std::string elf_function_at(const std::string &path, uint64_t vaddr) {
    std::unique_ptr<FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
    Elf64_Ehdr eh;
    std::vector<Elf64_Shdr> sh;
    if (!f || !read_sections(f.get(), &eh, &sh).empty()) return std::string();
    std::vector<Elf64_Sym> syms;
    std::vector<char> names;
    for (uint32_t want : {static_cast<uint32_t>(SHT_SYMTAB), static_cast<uint32_t>(SHT_DYNSYM)}) {
        for (const Elf64_Shdr &s : sh) {
            if (s.sh_type != want || !read_symbols(f.get(), sh, s, &syms, &names)) continue;
            for (const Elf64_Sym &y : syms) {
                if (ELF64_ST_TYPE(y.st_info) != STT_FUNC || y.st_value == 0) continue;
                if (vaddr < y.st_value || vaddr >= y.st_value + (y.st_size == 0 ? 1 : y.st_size)) continue;
                if (y.st_name + 1 >= names.size()) continue;
                return std::string(names.data() + y.st_name);
            }
        }
    }
    return std::string();
}

bool ElfExports::read(const std::string &path, std::string *why) {
    path_ = path;
    syms_.clear();
    std::unique_ptr<FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
    if (!f) {
        *why = std::strerror(errno);
        return false;
    }
    Elf64_Ehdr eh;
    std::vector<Elf64_Shdr> sh;
    *why = read_sections(f.get(), &eh, &sh);
    if (!why->empty()) return false;
    if (eh.e_type != ET_DYN) {
        *why = "not a shared object (ELF type " + std::to_string(eh.e_type) + ", a shared object is 3)";
        return false;
    }
    for (const Elf64_Shdr &s : sh) {
        if (s.sh_type != SHT_DYNSYM) continue;
        std::vector<Elf64_Sym> syms;
        std::vector<char> names;
        if (!read_symbols(f.get(), sh, s, &syms, &names)) {
            *why = "a truncated ELF file (dynamic symbol table)";
            return false;
        }
        for (const Elf64_Sym &y : syms) {
            // what dlsym finds: defined global or weak symbols that are not hidden
            if (y.st_shndx == SHN_UNDEF || y.st_name == 0 || y.st_name + 1 >= names.size()) continue;
            if (ELF64_ST_BIND(y.st_info) == STB_LOCAL || ELF64_ST_VISIBILITY(y.st_other) == STV_HIDDEN ||
                ELF64_ST_VISIBILITY(y.st_other) == STV_INTERNAL) {
                continue;
            }
            Sym sym;
            sym.size = y.st_size;
            sym.file_off = ~uint64_t{0};
            if (y.st_shndx < sh.size() && sh[y.st_shndx].sh_type != SHT_NOBITS && y.st_value >= sh[y.st_shndx].sh_addr) {
                sym.file_off = sh[y.st_shndx].sh_offset + (y.st_value - sh[y.st_shndx].sh_addr);
            }
            syms_.emplace(std::string(names.data() + y.st_name), sym);
        }
        break;
    }
    return true;
}

bool ElfExports::value(const std::string &name, void *dst, size_t n) const {
    auto it = syms_.find(name);
    if (it == syms_.end() || it->second.size < n) return false;
    if (it->second.file_off == ~uint64_t{0}) {
        std::memset(dst, 0, n);
        return true;
    }
    std::unique_ptr<FILE, FileCloser> f(std::fopen(path_.c_str(), "rb"));
    return f && read_at(f.get(), it->second.file_off, dst, n);
}

}  // namespace pyasc_sim
