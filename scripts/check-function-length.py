#!/usr/bin/env python3
"""Fails when a Swift function, initializer or closure-bodied accessor is longer than 80 lines, a type longer
than 300 (its declaration and every extension of it in the tree; a nested type is measured as a type of its own
and its lines are not its parent's, as docs/design.md says), or a source file longer than 300: Swift, and the
renderer kits' JavaScript, TypeScript, Java and Kotlin (FILE_ROOTS), tests included.

A function, type or file may be longer only when its doc comment (or a comment just above it) says why in a line
starting `/// Long:` or `// Long:` (a measured hot loop, the JSON writer). Counts lines from the declaration to its
closing brace; braces inside string literals and comments are ignored. A file is excused by such a line before its
first declaration (the header of the file's one type).
"""
import os
import re
import sys

LIMIT = 80
TYPE_LIMIT = 300
FILE_LIMIT = 300
FILE_ROOTS = ['Sources', 'Plugins', 'Fuzz/Sources', 'Benchmarks/Benchmarks', 'clients']
FILE_SUFFIXES = ('.swift', '.js', '.ts', '.java', '.kt')
SKIPPED_DIRECTORIES = {'.build', 'build', 'node_modules', '.gradle'}
TYPE_DECL = re.compile(r'^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|final|'
                       r'indirect)\s+)*(struct|class|enum|actor|extension|protocol)\s+([A-Za-z_][\w.]*)')
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


def body_end(code, n):
    """The line closing the body opened at or after line `n`, or None for a declaration without a body."""
    depth, started = 0, False
    for k in range(n, len(code)):
        for c in code[k]:
            if c == '{':
                depth += 1
                started = True
            elif c == '}':
                depth -= 1
        if started and depth <= 0:
            return k
        if not started and k > n and (code[k].strip() == '' or DECL.match(code[k])):
            return None  # a requirement without a body
    return None


def excused(lines, n):
    before = n - 1
    while before >= 0 and (lines[before].strip().startswith('///') or lines[before].strip().startswith('@')
                           or lines[before].strip().startswith('// ')):
        before -= 1
    return any(re.match(r'///? Long:', lines[k].strip()) for k in range(max(0, before), n))


def types(path):
    """Types and extensions: (line, own lines, qualified name, excused); a nested type's lines are its own, not its
    parent's (`Layout.ChangeSet` is measured apart from `Layout`)."""
    lines = open(path, encoding='utf-8').read().split('\n')
    state = {'block': False, 'multiline': False}
    code = [strip(l, state) for l in lines]

    def walk(start, stop, prefix):
        n = start
        while n < stop:
            m = TYPE_DECL.match(code[n].strip())
            end = body_end(code, n) if m else None
            if end is None or end >= stop + (1 if prefix == '' else 0):
                n += 1
                continue
            name = m.group(2).split('<')[0]
            qualified = name if m.group(1) == 'extension' or not prefix else prefix + '.' + name
            nested = list(walk(n + 1, end, qualified))
            own = end - n + 1 - sum(length for _, length, q, _ in nested if q.count('.') == qualified.count('.') + 1)
            # A type's doc comment is its own (a nested type's is not its parent's).
            doc = n
            while doc > 0 and (lines[doc - 1].strip().startswith('///') or lines[doc - 1].strip().startswith('@')):
                doc -= 1
            own += n - doc if prefix else 0
            yield n + 1, own, qualified, excused(lines, n)
            yield from nested
            n = end + 1

    yield from walk(0, len(code), '')


def functions(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    state = {'block': False, 'multiline': False}
    code = [strip(l, state) for l in lines]
    for n, text in enumerate(code):
        m = DECL.match(text)
        end = body_end(code, n) if m else None
        if end is not None:
            yield n + 1, end - n + 1, m.group(1).strip(), excused(lines, n)


def long_files():
    """Source files over FILE_LIMIT lines not excused in their header: (path, lines)."""
    for root in FILE_ROOTS:
        for directory, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRECTORIES)
            for name in sorted(files):
                if not name.endswith(FILE_SUFFIXES):
                    continue
                path = os.path.join(directory, name)
                lines = open(path, encoding='utf-8').read().rstrip('\n').split('\n')
                if len(lines) <= FILE_LIMIT:
                    continue
                first = next((k for k, l in enumerate(lines) if TYPE_DECL.match(l.strip()) or DECL.match(l)), len(lines))
                if not any(re.match(r'(///?|\*|/\*\*?) ?Long:', l.strip()) for l in lines[:first]):
                    yield path, len(lines)


def main(roots):
    bad = 0
    for path, length in long_files():
        print(f'{path}: {length} lines (limit {FILE_LIMIT}: split it by concern, or say why in a "Long:" line of its '
              'header)')
        bad += 1
    sizes, places, excuses = {}, {}, {}
    for root in roots:
        for directory, _, files in os.walk(root):
            if '/.build' in directory:
                continue
            for name in sorted(files):
                if not name.endswith('.swift'):
                    continue
                path = os.path.join(directory, name)
                for line, length, what, ok in functions(path):
                    if length > LIMIT and not ok:
                        print(f'{path}:{line}: {what} is {length} lines (limit {LIMIT}; a measured hot loop says why in a '
                              f'"// Long:" comment above it)')
                        bad += 1
                for line, length, name, ok in types(path):
                    key = (root, name)
                    sizes[key] = sizes.get(key, 0) + length
                    places.setdefault(key, []).append(f'{path}:{line}')
                    excuses[key] = excuses.get(key, False) or ok
    for (root, name), length in sorted(sizes.items()):
        if length > TYPE_LIMIT and not excuses[(root, name)]:
            print(f'{places[(root, name)][0]}: type {name} is {length} lines with its extensions, nested types apart '
                  f'(limit {TYPE_LIMIT}): '
                  + ', '.join(places[(root, name)][1:] or ['one declaration']))
            bad += 1
    print(f'check-function-length: {bad} function(s) over {LIMIT} lines, type(s) or file(s) over {TYPE_LIMIT}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:] or ['Sources', 'clients/swift/Sources', 'Fuzz/Sources']))
