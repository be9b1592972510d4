#!/usr/bin/env python3
"""Sweeps gkocr's detector and crop parameters over a rendered set and prints a
Markdown table of error rates, one row per setting.

    sweep_params.py --gkocr build/tools/gkocr --set DIR [--unclip 1.5,1.8] [--pad-x 0,0.1]
                    [--pad-y 0] [--join boxes,text,off] [--join-gap 2] [--show] [-- GKOCR_FLAGS...]

DIR holds manifest.tsv ("image<TAB>line", tests/ocr/render_tuneset.sh and
render_testset.sh write it) and the images. Each setting runs gkocr once over all
images (--json, one object per image). Per setting: the character error rate
over the set (Levenshtein distance of each image's lines joined by newlines, over
the expected characters), the same with spaces removed (the recogniser's own
errors, without word spacing), and the expected lines read exactly. Full-width
ASCII forms the recogniser writes (U+FF01-FF5E) are folded to ASCII first, as
tests/ocr/ocr_e2e_test.cpp does. --show lists the lines read wrong.
"""
import argparse
import itertools
import json
import os
import subprocess
import sys


def canonical(s):
    return ''.join(chr(ord(c) - 0xFEE0) if 0xFF01 <= ord(c) <= 0xFF5E else c for c in s)


def edit_distance(a, b):
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        diag, row[0] = row[0], i
        for j in range(1, len(b) + 1):
            up = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1]))
            diag = up
    return row[len(b)]


def manifest(set_dir):
    images = {}
    with open(os.path.join(set_dir, 'manifest.tsv'), encoding='utf-8') as f:
        for row in f:
            image, _, line = row.rstrip('\n').partition('\t')
            if line:
                images.setdefault(image, []).append(line)
    return images


def floats(s):
    return [float(v) for v in s.split(',') if v]


def run_setting(args, images, unclip, pad_x, pad_y, join, gap):
    cmd = [args.gkocr, *[os.path.join(args.set, i) for i in images], '--json', '--unclip-ratio', str(unclip),
           '--crop-pad-x', str(pad_x), '--crop-pad-y', str(pad_y), '--join', join, '--join-gap', str(gap),
           *args.extra]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    results = {}
    for row in out.splitlines():
        r = json.loads(row)
        results[os.path.basename(r['image'])] = r
    return results


def score(images, results):
    edits = edits_nospace = chars = chars_nospace = exact = lines = 0
    wrong = []
    ms = 0.0
    for image, want_lines in images.items():
        r = results[image]
        ms += r['timings']['total_ms']
        got_lines = [canonical(l['text']) for l in r['lines']]
        want_lines = [canonical(l) for l in want_lines]
        want, got = '\n'.join(want_lines), '\n'.join(got_lines)
        edits += edit_distance(want, got)
        chars += len(want)
        edits_nospace += edit_distance(want.replace(' ', ''), got.replace(' ', ''))
        chars_nospace += len(want.replace(' ', ''))
        remaining = list(got_lines)
        for w in want_lines:
            lines += 1
            if w in remaining:
                exact += 1
                remaining.remove(w)
            else:
                wrong.append((image, w, ' | '.join(got_lines)))
    return {'cer': edits / chars, 'cer_nospace': edits_nospace / chars_nospace, 'exact': exact, 'lines': lines,
            'edits': edits, 'ms': ms, 'wrong': wrong}


def main():
    argv = sys.argv[1:]
    extra = []
    if '--' in argv:
        extra = argv[argv.index('--') + 1:]
        argv = argv[:argv.index('--')]
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--gkocr', required=True)
    p.add_argument('--set', required=True)
    p.add_argument('--unclip', type=floats, default=[1.5])
    p.add_argument('--pad-x', type=floats, default=[0.0])
    p.add_argument('--pad-y', type=floats, default=[0.0])
    p.add_argument('--join', default='boxes')
    p.add_argument('--join-gap', type=floats, default=[2.0])
    p.add_argument('--show', action='store_true')
    args = p.parse_args(argv)
    args.extra = extra
    images = manifest(args.set)
    print(f'{len(images)} images, {sum(len(v) for v in images.values())} lines, '
          f'{sum(len(l) for v in images.values() for l in v)} characters')
    print('| unclip | pad x | pad y | join | gap | CER | CER without spaces | lines exact | edits |')
    print('|---|---|---|---|---|---|---|---|---|')
    for unclip, pad_x, pad_y, join, gap in itertools.product(args.unclip, args.pad_x, args.pad_y,
                                                             args.join.split(','), args.join_gap):
        s = score(images, run_setting(args, images, unclip, pad_x, pad_y, join, gap))
        print(f"| {unclip:g} | {pad_x:g} | {pad_y:g} | {join} | {gap:g} | {100 * s['cer']:.2f}% | "
              f"{100 * s['cer_nospace']:.2f}% | {s['exact']}/{s['lines']} | {s['edits']} |", flush=True)
        if args.show:
            for image, want, got in s['wrong']:
                print(f'    {image}: want {want!r}; got {got!r}')


if __name__ == '__main__':
    main()
