#!/usr/bin/env python3
"""Keeps docs/sdk.md in step with the public SDK headers (sdk/include/jobhost/**/*.h).

Forward: every public name a header declares -- JOBHOST_* macros, types, type aliases and
functions (free and public members; not data fields, not namespace detail, not private sections)
-- must appear in docs/sdk.md.
Backward: every JOBHOST_* macro and every called name (`name(`, `.name(`, `::name`) the docs write
in backticks must exist in a header, in cmake/, or in the short list of host and CMake names the
docs mention on purpose.

Usage: docs_in_step.py <source dir>. Prints what is out of step and exits 1, or exits 0.
"""
import glob
import os
import re
import sys

# Header names the docs need not mention: helpers of other macros, std names in inline bodies.
NOT_API = {"JOBHOST_STR_INNER", "move", "to_string", "count", "substr", "rfind", "find", "end",
           "begin", "erase", "size", "empty_", "bool", "char"}
# Names the docs use that are not in the SDK headers: host functions and CMake/CLI names.
NOT_IN_HEADERS = {"adoptPlugin", "loadPlugin", "jobhost_add_plugin", "jobhost_harness_test",
                  "find_package", "target_link_libraries", "add_executable", "JOBHOST_PLUGIN_PATH",
                  "JOBHOST_PLUGIN_INSTALL_DIR", "JOBHOST_EXECUTABLE", "JOBHOST_LOG_LEVEL",
                  "front", "back", "at", "size", "empty", "c_str"}  # std containers in examples
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "static_cast", "reinterpret_cast",
            "const_cast", "dynamic_cast", "decltype", "requires", "noexcept", "operator", "alignof",
            "defined", "catch", "try", "throw", "delete", "new"}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def drop_detail(text):
    while True:
        m = re.search(r"namespace detail\s*\{", text)
        if not m:
            return text
        i, depth = m.end(), 1
        while depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        text = text[: m.start()] + text[i:]


def drop_private(text):
    out, skipping = [], None
    for line in text.split("\n"):
        s, indent = line.strip(), len(line) - len(line.lstrip())
        if skipping is not None:
            if s in ("public:", "protected:") or (s.startswith("};") and indent < skipping):
                skipping = None
            else:
                continue
        if s == "private:":
            skipping = indent
            continue
        out.append(line)
    return "\n".join(out)


def header_names(root):
    names = {}
    for path in sorted(glob.glob(os.path.join(root, "sdk/include/jobhost/**/*.h"), recursive=True)):
        raw = open(path).read()
        rel = os.path.relpath(path, root)
        for m in re.finditer(r"#define (JOBHOST_\w+)", raw):
            names.setdefault(m.group(1), rel)
        text = drop_private(drop_detail(strip_comments(raw)))
        text = re.sub(r"#define[^\n]*(?:\\\n[^\n]*)*", "", text)
        for m in re.finditer(r"\b(?:struct|class|enum class|enum)\s+(?:JOBHOST_TESTING_API\s+)?"
                             r"([A-Za-z_]\w*)\s*(?:final\s*)?[:{]", text):
            names.setdefault(m.group(1), rel)
        for m in re.finditer(r"\busing\s+(\w+)\s*=", text):
            names.setdefault(m.group(1), rel)
        for m in re.finditer(r"([A-Za-z_]\w*)\s*\(", text):
            name, before = m.group(1), text[max(0, m.start() - 40): m.start()]
            if name in KEYWORDS or name.isupper():
                continue
            if not re.search(r"[\w>&*]\s+$|~$", before) or re.search(r"\breturn\s+$", before):
                continue  # a call, not a declaration
            names.setdefault(name, rel)
    return {n: f for n, f in names.items() if n not in NOT_API}


def main():
    root = sys.argv[1]
    docs = open(os.path.join(root, "docs/sdk.md")).read()
    headers = "\n".join(open(p).read() for p in glob.glob(os.path.join(root, "sdk/include/jobhost/**/*.h"),
                                                            recursive=True))
    cmake = "\n".join(open(p).read() for p in glob.glob(os.path.join(root, "cmake/*")))
    problems = []

    for name, path in sorted(header_names(root).items()):
        if not re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", docs):
            problems.append(f"docs/sdk.md does not describe {name} ({path})")

    code = " ".join(re.findall(r"`([^`\n]+)`", docs)) + " " + " ".join(re.findall(r"```[a-z]*\n(.*?)```", docs, re.S))
    used = set(re.findall(r"\b(JOBHOST_[A-Z_]+)\b", code))
    used |= set(re.findall(r"(?:\.|::)([a-z]\w*)\s*\(", code))
    used |= set(re.findall(r"`([a-z][A-Za-z0-9]*)\(", docs))
    for name in sorted(used):
        if name in NOT_IN_HEADERS:
            continue
        if not re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", headers + cmake):
            problems.append(f"docs/sdk.md names {name}, which no SDK header or cmake/ file declares")

    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s): update docs/sdk.md (or this script's lists) with the headers")
        return 1
    print(f"docs/sdk.md is in step with the SDK headers ({len(header_names(root))} public names)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
