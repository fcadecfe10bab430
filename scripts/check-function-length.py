#!/usr/bin/env python3
"""Fails when a Swift function, initializer or closure-bodied accessor is longer than 80 lines.

A function may be longer only when its doc comment (or a comment just above it) says why in a line starting
`/// Long:` or `// Long:` (a measured hot loop). Counts lines from the declaration to its closing brace; braces inside
string literals and comments are ignored.
"""
import os
import re
import sys

LIMIT = 80
DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|static|class|'
                  r'final|override|mutating|nonmutating|nonisolated|convenience|required|@inline\(__always\)|'
                  r'@inlinable|@usableFromInline)\s+)*(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript\s*[(<])')


def string_end(line, i):
    """One past the closing quote of the string literal opening at `i` (interpolations may hold strings)."""
    j = i + 1
    while j < len(line) and line[j] != '"':
        if line.startswith('\\(', j):
            depth, j = 1, j + 2
            while j < len(line) and depth:
                if line[j] == '"':
                    j = string_end(line, j)
                    continue
                depth += {'(': 1, ')': -1}.get(line[j], 0)
                j += 1
            continue
        j += 2 if line[j] == '\\' else 1
    return j + 1


def strip(line, state):
    """The line without string contents and comments; `state` carries a multi-line string or comment."""
    out, i = [], 0
    while i < len(line):
        if state['block']:
            end = line.find('*/', i)
            if end < 0:
                return ''.join(out)
            state['block'], i = False, end + 2
            continue
        if state['multiline']:
            end = line.find('"""', i)
            if end < 0:
                return ''.join(out)
            state['multiline'], i = False, end + 3
            continue
        c = line[i]
        if line.startswith('//', i):
            break
        if line.startswith('/*', i):
            state['block'], i = True, i + 2
            continue
        if line.startswith('"""', i):
            state['multiline'], i = True, i + 3
            continue
        if c == '"':
            i = string_end(line, i)
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def functions(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    state = {'block': False, 'multiline': False}
    code = [strip(l, state) for l in lines]
    for n, text in enumerate(code):
        m = DECL.match(text)
        if not m:
            continue
        depth, started, end = 0, False, None
        for k in range(n, len(code)):
            for c in code[k]:
                if c == '{':
                    depth += 1
                    started = True
                elif c == '}':
                    depth -= 1
            if started and depth <= 0:
                end = k
                break
            if not started and k > n and (code[k].strip() == '' or DECL.match(code[k])):
                break  # a requirement without a body
        if end is None:
            continue
        before = n - 1
        while before >= 0 and (lines[before].strip().startswith('///') or lines[before].strip().startswith('@')):
            before -= 1
        excused = any(re.match(r'///? Long:', lines[k].strip()) for k in range(max(0, before), n))
        yield n + 1, end - n + 1, m.group(1).strip(), excused


def main(roots):
    bad = 0
    for root in roots:
        for directory, _, files in os.walk(root):
            if '/.build' in directory:
                continue
            for name in sorted(files):
                if not name.endswith('.swift'):
                    continue
                path = os.path.join(directory, name)
                for line, length, what, excused in functions(path):
                    if length > LIMIT and not excused:
                        print(f'{path}:{line}: {what} is {length} lines (limit {LIMIT}; a measured hot loop says why in a '
                              f'"// Long:" comment above it)')
                        bad += 1
    print(f'check-function-length: {bad} function(s) over {LIMIT} lines')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:] or ['Sources', 'clients/swift/Sources', 'Fuzz/Sources']))
