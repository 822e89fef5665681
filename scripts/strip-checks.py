#!/usr/bin/env python3
"""Removes CHECK constraints from CREATE TABLE statements (stdin to stdout).

make bench gives the sqlite3 shell gym's tables without them: the shell's .import --csv turns a
NULL field into '', which some of them would refuse, and without them the shell does less work
than gym does, so the reference is the stronger for it."""
import re
import sys

CHECK = re.compile(r"(CONSTRAINT\s+\w+\s+)?CHECK\s*\(", re.I)


def strip(sql):
    out, i, n = [], 0, len(sql)
    while i < n:
        match = CHECK.match(sql, i)
        if match and (i == 0 or not (sql[i - 1].isalnum() or sql[i - 1] == "_")):
            j, depth, quote = match.end(), 1, None
            while j < n and depth:
                c = sql[j]
                if quote:
                    if c == quote:
                        quote = None
                elif c in "'\"":
                    quote = c
                elif c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                j += 1
            i = j
            continue
        out.append(sql[i])
        i += 1
    text = "".join(out)
    # A table constraint leaves its comma behind.
    text = re.sub(r",(\s*)\)", r"\1)", text)
    return re.sub(r",\s*,", ",", text)


sys.stdout.write(strip(sys.stdin.read()))
