"""Checks that a man page renders cleanly and keeps up with its program's --help.

1. groff renders the page with every warning enabled (-ww) without a single message and
   produces the NAME section.
2. Every long option (--name) that the program's --help prints appears in the page's section
   for it: with --subcommands, `PROGRAM SUB --help` against the subsection `.SS SUB`; without,
   `PROGRAM --help` against `.SH OPTIONS`. A new option without a man page entry fails here.
3. Every long option that an entry of that section documents (the tag line after .TP) is one
   that --help prints, so the page describes no option the program does not have.

Without groff (Debian: groff-base) checks 2 and 3 still run, then the test exits with status 77
(skipped) because the rendering was not checked."""
import argparse
import os
import re
import subprocess
import sys

SKIP_STATUS = 77  # ctest's SKIP_RETURN_CODE of the tests that run this script

LONG_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-])")
# Option lines of a help text: indented, starting with a dash; the first column ends at a run
# of two or more spaces.
OPTION_LINE = re.compile(r"^\s+(-\S.*?)(?:\s{2,}|$)")

failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message, flush=True)


def plain(line):
    """A line of man page source as text: escapes for dashes become dashes, font changes and
    zero-width escapes disappear, comments are dropped."""
    line = re.sub(r'\\".*', "", line)
    line = line.replace("\\-", "-").replace("\\(hy", "-").replace("\\[hy]", "-")
    line = re.sub(r"\\f(\[[^\]]*\]|\(..|.)", "", line)
    for zero_width in ("\\&", "\\%", "\\c", "\\:"):
        line = line.replace(zero_width, "")
    return line


def section(page_lines, heading):
    """The source lines after `heading` up to the next .SH or .SS."""
    for start, line in enumerate(page_lines):
        if line.strip() == heading:
            end = start + 1
            while end < len(page_lines) and not re.match(r"\.S[HS]\b", page_lines[end]):
                end += 1
            return page_lines[start + 1:end]
    fail(f"the page has no '{heading}'")
    return []


def documented_options(lines):
    """Long options on the tag lines of the .TP entries."""
    options = set()
    for i, line in enumerate(lines[:-1]):
        if line.strip() == ".TP":
            options.update(LONG_OPTION.findall(plain(lines[i + 1])))
    return options


def help_text(command):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    print("$", " ".join(command), flush=True)
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    if result.returncode != 0 or not result.stdout.strip():
        fail(f"'{' '.join(command)}' exited with {result.returncode} and printed "
             f"{len(result.stdout)} characters: {result.stderr.strip()}")
    return result.stdout


def help_options(text, first_column_only):
    if not first_column_only:
        return set(LONG_OPTION.findall(text))
    options = set()
    for line in text.splitlines():
        match = OPTION_LINE.match(line)
        if match:
            options.update(LONG_OPTION.findall(match.group(1)))
    return options


def check_options(page_lines, heading, help_command, first_column_only):
    lines = section(page_lines, heading)
    text = "\n".join(plain(line) for line in lines)
    printed = help_options(help_text(help_command), first_column_only)
    if not printed:
        fail(f"'{' '.join(help_command)}' prints no long option: nothing to compare")
        return
    in_page = set(LONG_OPTION.findall(text))
    for option in sorted(printed - in_page):
        fail(f"'{' '.join(help_command)}' prints {option}, which '{heading}' does not mention")
    documented = documented_options(lines)
    for option in sorted(documented - printed):
        fail(f"'{heading}' documents {option}, which '{' '.join(help_command)}' does not print")
    print(f"{heading}: {len(printed)} options of --help, {len(documented)} documented entries")


def check_rendering(groff, page):
    command = [groff, "-man", "-Tutf8", "-ww", page]
    print("$", " ".join(command), flush=True)
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if result.returncode != 0 or result.stderr:
        fail(f"groff exited with {result.returncode} and warned:\n{result.stderr}")
    # grotty marks bold by overstriking or with SGR escapes: drop both.
    text = re.sub(r".\x08|\x1b\[[0-9;]*m", "", result.stdout)
    if "NAME" not in text:
        fail("the rendered page has no NAME section")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--page", required=True, help="the man page source")
    parser.add_argument("--program", required=True, help="the program the page describes")
    parser.add_argument("--subcommands", help="comma list: one .SS section per subcommand")
    parser.add_argument("--groff", help="groff; without it the rendering is not checked")
    args = parser.parse_args()

    with open(args.page, encoding="utf-8") as f:
        page_lines = f.read().splitlines()
    if args.subcommands:
        for sub in args.subcommands.split(","):
            check_options(page_lines, f".SS {sub}", [args.program, sub, "--help"], False)
    else:
        check_options(page_lines, ".SH OPTIONS", [args.program, "--help"], True)

    if args.groff:
        check_rendering(args.groff, args.page)
    if failures:
        sys.exit(f"{len(failures)} problem(s) in {args.page}")
    if not args.groff:
        print("groff not found (Debian: groff-base): the rendering was not checked")
        sys.exit(SKIP_STATUS)
    print(f"{args.page}: renders without warnings and documents every option")


if __name__ == "__main__":
    main()
