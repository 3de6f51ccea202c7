#!/usr/bin/env python3
"""Writes every ```swift block of the docs into a package that Scripts/doc-samples builds.

Sources: Docs/*.md, README.md, the DocC catalogs (Sources/*/*.docc/*.md) and the ```swift blocks of the
doc comments (///) in Sources/. Each Markdown file becomes one target (its blocks build on each other, as the
reader reads them); the doc comments of one source module become one target, a file per source file.

A block is compiled as the reader sees it, with the doc's path and line put back (#sourceLocation), so that
the compiler names the doc and the line of a block that does not compile:
- a declaration that starts at the block's column 0 (extension, struct, func, @Test, ...) goes to file scope,
  up to its closing brace;
- the block's other lines are the body of a function, so that its statements compile; a `return` at the
  block's column 0 returns the function's result (of type Any). That function's parameters are the names the docs use without declaring them
  (CONTEXT below: `manager`, `connection`, `transport`, ...), each always of the same type.
- `import` lines are dropped: every file imports every library product of Airlink, Foundation,
  Synchronization and Testing.
A block marked ```swift ignore is not compiled; the text beside it says why.
A block marked ```swift run is a complete program on the simulated world: it is compiled as a function with no
parameters (so it may use no name it does not declare, besides its doc's file-scope declarations), and the generated
executable `doc-samples-run` runs every such block, in the docs' order; a block that throws, or whose `precondition`
fails, fails the run, named by its doc and line. Such a block states what it claims with `precondition`, so that a
sample that compiles but does the wrong thing fails.

Usage: Scripts/doc-samples.py OUTPUT_DIR  (prints the counts: compiled, ignored)
"""
import os, re, sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))

# The names a block may use without declaring them, and their types: what the docs' prose calls them.
CONTEXT = [
    ('transport', 'any Transport'),
    ('environment', 'AirlinkEnvironment'),
    ('manager', 'DeviceManager'),
    ('connection', 'ConnectionManager'),
    ('service', 'DeviceService'),
    ('device', 'DeviceID'),
    ('id', 'DeviceID'),
    ('ids', '[DeviceID]'),
    ('sensor', 'DeviceID'),
    ('radio', 'VirtualRadio'),
    ('sim', 'Simulation'),
    ('record', 'ConnectionRecord'),
    ('registry', 'DeviceRegistry'),
    ('result', 'ScenarioResult'),
    ('value', '[UInt8]'),
    ('calibration', 'SensorTagBarometerCalibration'),
    ('elapsed', 'Duration'),
    ('hash', '[UInt8]?'),
    ('bluez', 'BlueZTransport'),
    ('peripheral', 'Peripheral'),
    ('inspector', 'Inspector'),
    ('thermostat', 'SimulatedPeripheral'),
    ('simulation', 'Simulation'),
    ('scenario', 'Scenario'),
    ('selector', 'TransportSelector'),
    ('clock', 'RecordClock'),
    ('context', 'any PeripheralContext'),
]

IMPORTS = [
    'Foundation', 'Observation', 'Synchronization', 'Testing', 'AirlinkCore', 'Airlink', 'AirlinkSimulation', 'AirlinkProfiles',
    'AirlinkRegistry', 'AirlinkRegistrySQLite', 'AirlinkBlueZ', 'AirlinkTransports', 'AirlinkTestKit', 'AirlinkHCI',
    'AirlinkTransportContract',
]

FILE_SCOPE = re.compile(
    r'^(@\w+|public |private |fileprivate |internal |open |package |final |extension |struct |class |enum |'
    r'actor |protocol |func |typealias |#if )')
FENCE = re.compile(r'^(\s*)```(.*)$')


class Block:
    def __init__(self, path, line, info, lines):
        self.path, self.line, self.info, self.lines = path, line, info, lines

    @property
    def ignored(self):
        return 'ignore' in self.info.split()[1:]

    @property
    def runnable(self):
        return 'run' in self.info.split()[1:]


def markdown_blocks(path, text_lines):
    """The ```swift blocks of Markdown lines; `line` is the 1-based line of the block's first code line."""
    blocks, current, start, info, indent = [], None, 0, '', ''
    for number, line in enumerate(text_lines, 1):
        fence = FENCE.match(line)
        if current is None:
            if fence and fence.group(2).strip().split()[:1] == ['swift']:
                current, start, info, indent = [], number + 1, fence.group(2).strip(), fence.group(1)
        elif fence and not fence.group(2).strip():
            blocks.append(Block(path, start, info, current))
            current = None
        else:
            current.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
    return blocks


def comment_blocks(path, source_lines):
    """The ```swift blocks of a Swift file's /// comments, with the comment markers taken off."""
    comment = re.compile(r'^\s*/// ?(.*)$')
    stripped = []
    for line in source_lines:
        match = comment.match(line)
        # A line that is not a doc comment ends any block: a fence never spans code.
        stripped.append(match.group(1) if match else '\x00')
    blocks = []
    for block in markdown_blocks(path, stripped):
        if '\x00' not in block.lines:
            blocks.append(block)
    return blocks


def split(lines):
    """The block's runs of lines, each `(at_file_scope, first_index, lines)`: a declaration that starts at the
    block's column 0 (with the doc comments and attributes before it) runs to its closing brace and goes to file
    scope; everything else is statements."""
    runs, index = [], 0
    while index < len(lines):
        line = lines[index]
        if FILE_SCOPE.match(line) or (line.startswith('///') and next(
                (FILE_SCOPE.match(rest) for rest in lines[index:] if not rest.startswith('///')), None)):
            first, depth, opened = index, 0, False
            while index < len(lines):
                code = re.sub(r'"[^"]*"|//.*$', '', lines[index])
                depth += code.count('{') - code.count('}')
                opened = opened or '{' in code
                index += 1
                if lines[index - 1].startswith('///') or (not opened and lines[index - 1].startswith('@')):
                    continue
                if depth <= 0 and (opened or not lines[index - 1].rstrip().endswith(('(', ',', '->'))):
                    break
            runs.append((True, first, lines[first:index]))
        else:
            if runs and not runs[-1][0]:
                runs[-1][2].append(line)
            else:
                runs.append((False, index, [line]))
            index += 1
    return runs


def render(blocks, prefix, runnable):
    """A Swift file with the blocks: their declarations at file scope, their statements as function bodies.

    The functions of runnable blocks take no parameters and are public; each is appended to `runnable` as
    (function name, the doc's path and line)."""
    out = ['// Generated by Scripts/doc-samples.py from the docs: edit the docs, not this file.']
    out += ['import ' + module for module in IMPORTS]
    parameters = ', '.join(f'{name}: {type_}' for name, type_ in CONTEXT)
    for block in blocks:
        code = ['' if re.match(r'^\s*import \w+\s*$', line) else line for line in block.lines]
        statements = []
        for at_file_scope, first, lines in split(code):
            location = f'#sourceLocation(file: "{block.path}", line: {block.line + first})'
            if at_file_scope:
                out += ['', location] + lines + ['#sourceLocation()']
            else:
                statements += [location] + lines
        if any(line.strip() and not line.startswith('#sourceLocation') for line in statements):
            result = ' -> Any' if any(line.startswith('return') for line in statements) else ''
            if block.runnable:
                runnable.append((f'{prefix}{block.line}', f'{block.path}:{block.line}'))
                out += ['', f'public func {prefix}{block.line}() async throws{result} {{']
            else:
                out += ['', f'func {prefix}{block.line}({parameters}) async throws{result} {{']
            out += statements + ['#sourceLocation()', '}']
    return '\n'.join(out) + '\n'


def module_name(text):
    return re.sub(r'[^A-Za-z0-9]', '_', text)


def main():
    output = sys.argv[1]
    sources = os.path.join(output, 'Sources')
    targets = {}  # target name -> {file name: [Block]}

    markdown = sorted(
        [os.path.join('Docs', name) for name in os.listdir(os.path.join(ROOT, 'Docs')) if name.endswith('.md')]
        + ['README.md']
        + [os.path.join('Sources', module, catalog, name)
           for module in sorted(os.listdir(os.path.join(ROOT, 'Sources')))
           if os.path.isdir(os.path.join(ROOT, 'Sources', module))
           for catalog in sorted(os.listdir(os.path.join(ROOT, 'Sources', module))) if catalog.endswith('.docc')
           for name in sorted(os.listdir(os.path.join(ROOT, 'Sources', module, catalog))) if name.endswith('.md')])
    for path in markdown:
        with open(os.path.join(ROOT, path), encoding='utf-8') as file:
            blocks = markdown_blocks(path, file.read().split('\n'))
        if blocks:
            targets['Doc_' + module_name(os.path.splitext(path)[0])] = {'Samples.swift': blocks}

    if os.environ.get('DOC_SAMPLES_COMMENTS', '1') == '1':
        for module in sorted(os.listdir(os.path.join(ROOT, 'Sources'))):
            files = {}
            for dirpath, _, names in sorted(os.walk(os.path.join(ROOT, 'Sources', module))):
                for name in sorted(names):
                    if not name.endswith('.swift'):
                        continue
                    path = os.path.relpath(os.path.join(dirpath, name), ROOT)
                    with open(os.path.join(ROOT, path), encoding='utf-8') as file:
                        blocks = comment_blocks(path, file.read().split('\n'))
                    if blocks:
                        files[module_name(os.path.splitext(path)[0]) + '.swift'] = blocks
            if files:
                targets['Comments_' + module_name(module)] = files

    compiled = ignored = 0
    names = []
    runs = []  # (target, function, doc:line) of every runnable block
    for target, files in sorted(targets.items()):
        directory = os.path.join(sources, target)
        os.makedirs(directory, exist_ok=True)
        for stale in os.listdir(directory):
            os.remove(os.path.join(directory, stale))
        kept_any = False
        for file_name, blocks in sorted(files.items()):
            kept = [block for block in blocks if not block.ignored]
            ignored += len(blocks) - len(kept)
            compiled += len(kept)
            if kept:
                kept_any = True
                runnable = []
                with open(os.path.join(directory, file_name), 'w', encoding='utf-8') as file:
                    file.write(render(kept, 'sample_' + module_name(os.path.splitext(file_name)[0]) + '_line',
                                      runnable))
                runs += [(target, function, location) for function, location in runnable]
        if kept_any:
            names.append(target)
        else:
            os.rmdir(directory)
    runner = 'doc-samples-run'
    write_runner(os.path.join(sources, runner), runs)
    for stale in os.listdir(sources) if os.path.isdir(sources) else []:
        if stale not in names + [runner]:
            for name in os.listdir(os.path.join(sources, stale)):
                os.remove(os.path.join(sources, stale, name))
            os.rmdir(os.path.join(sources, stale))

    products = ', '.join(f'.product(name: "{module}", package: "Airlink")' for module in IMPORTS[4:])
    manifest = ['// swift-tools-version: 6.1', '// Generated by Scripts/doc-samples.py.', 'import PackageDescription',
                '', 'let package = Package(', '    name: "DocSamples",', '    platforms: [.macOS(.v15)],',
                f'    dependencies: [.package(name: "Airlink", path: "{os.path.relpath(ROOT, output)}")],',
                '    targets: [']
    for target in names:
        # Warnings (an unused `let` in a sample) are not the check's business: it asks that samples compile.
        manifest.append(f'        .target(name: "{target}", dependencies: [{products}], '
                        'swiftSettings: [.unsafeFlags(["-suppress-warnings"])]),')
    run_targets = sorted({target for target, _, _ in runs})
    dependencies = ', '.join(f'"{target}"' for target in run_targets)
    manifest.append(f'        .executableTarget(name: "{runner}", dependencies: [{dependencies}]),')
    manifest += ['    ],', '    swiftLanguageModes: [.v6]', ')']
    with open(os.path.join(output, 'Package.swift'), 'w', encoding='utf-8') as file:
        file.write('\n'.join(manifest) + '\n')
    print(f'{compiled} {ignored} {len(runs)}')


def write_runner(directory, runs):
    """The executable that runs every runnable block in order: it names each before running it (a failed
    precondition stops the process there), and exits 1 naming the blocks that threw."""
    os.makedirs(directory, exist_ok=True)
    for stale in os.listdir(directory):
        os.remove(os.path.join(directory, stale))
    out = ['// Generated by Scripts/doc-samples.py from the docs: edit the docs, not this file.', 'import Foundation']
    out += [f'import {target}' for target in sorted({target for target, _, _ in runs})]
    out += ['', 'let samples: [(String, () async throws -> Void)] = [']
    out += [f'    ("{location}", {{ _ = try await {target}.{function}() }}),' for target, function, location in runs]
    out += [']', '', 'var failed: [String] = []', 'for (location, sample) in samples {',
            '    // Named before it runs, unbuffered: a failed precondition ends the process.',
            '    FileHandle.standardError.write(Data("doc-samples-run: \\(location)\\n".utf8))',
            '    do { try await sample() } catch {',
            '        print("doc-samples-run: \\(location) threw: \\(error)")',
            '        failed.append(location)', '    }', '}',
            'if !failed.isEmpty {',
            '    print("doc-samples-run: \\(failed.count) of \\(samples.count) sample(s) failed: \\(failed)")',
            '    exit(1)', '}',
            'print("doc-samples-run: \\(samples.count) sample(s) ran")']
    with open(os.path.join(directory, 'main.swift'), 'w', encoding='utf-8') as file:
        file.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
