#!/usr/bin/env node
// Runs ONNX backend node tests (converted by node_suite.py) on onnxruntime-node, CPU EP,
// and compares with the ONNX backend runner's rule: shapes and dtypes equal, floats by
// numpy.testing.assert_allclose(rtol=1e-3, atol=1e-7, equal_nan=True), integers, bools
// and strings exactly.
//   node node_suite.js CONVERTED_DIR [--opt all|extended|basic|disabled] [--threads N] [CASE ...]
// Prints one line per case: <case>\tPASS|FAIL|ERROR|HARNESS\t<short reason>.
// HARNESS = the case cannot be driven from onnxruntime-node (a dtype its JS API lacks,
// a sequence/optional value), which says nothing about ORT itself.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const ort = require('onnxruntime-node');
const { readNpyArray } = require('./run_ort.js');

const RTOL = 1e-3;
const ATOL = 1e-7;
// Tensor types onnxruntime-node 1.30 can feed and return. Its JS layer also names uint4 and
// int4, but the native binding rejects them as inputs ("Tensor.type is not supported") and
// aborts the process on an int4 output, so they count as unsupported here.
const ORT_TYPES = new Set(['float32', 'uint8', 'int8', 'uint16', 'int16', 'int32', 'int64', 'string',
                           'bool', 'float16', 'float64', 'uint32', 'uint64']);
const FLOAT_TYPES = new Set(['float32', 'float64', 'float16']);

// A .npy file's elements (run_ort.js's reader).
function readNpy(file) { return readNpyArray(file).data; }

function elementCount(shape) { return shape.reduce((a, b) => a * b, 1); }

function loadTensor(dir, v) {
  if (v.dtype === 'string') return new ort.Tensor('string', v.strings, v.shape);
  const file = path.join(dir, v.file);
  if (v.encoding === 'npy') return new ort.Tensor(v.dtype, readNpy(file), v.shape);
  throw new Error(`no onnxruntime-node tensor for ${v.dtype}`);
}

function f16ToNumber(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

function unpackNibbles(bytes, count, signed) {
  const out = new Array(count);
  for (let i = 0; i < count; ++i) {
    let v = (bytes[i >> 1] >> ((i & 1) * 4)) & 0xf;
    if (signed && v >= 8) v -= 16;
    out[i] = v;
  }
  return out;
}

// Element values as Numbers (floats, small ints), BigInts (64-bit) or strings.
function valuesOf(type, data, count) {
  if (type === 'float16') return Array.from(data, f16ToNumber);
  if (type === 'bool') return Array.from(data, v => (v ? 1 : 0));
  if (type === 'int4' || type === 'uint4') {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return unpackNibbles(bytes, count, type === 'int4');
  }
  return Array.from(data);
}

function expectedValues(dir, v) {
  const count = elementCount(v.shape);
  if (v.dtype === 'string') return v.strings;
  if (v.encoding === 'npy') return valuesOf(v.dtype, readNpy(path.join(dir, v.file)), count);
  return valuesOf(v.dtype, new Uint8Array(fs.readFileSync(path.join(dir, v.file))), count);
}

function fmt(x) { return typeof x === 'number' ? String(Number(x.toPrecision(7))) : String(x); }

// Returns null when `got` matches `want` under the runner's rule, else a short reason.
function compare(name, got, want, dir) {
  if (got === undefined) return `${name}: no such output`;
  if (got.type !== want.dtype) return `${name}: dtype ${got.type}, expected ${want.dtype}`;
  const gd = Array.from(got.dims), wd = want.shape;
  if (gd.length !== wd.length || gd.some((d, i) => d !== wd[i]))
    return `${name}: shape [${gd}], expected [${wd}]`;
  const count = elementCount(wd);
  const g = valuesOf(got.type, got.data, count), w = expectedValues(dir, want);
  let bad = 0, first = -1, worst = 0;
  const isFloat = FLOAT_TYPES.has(want.dtype);
  for (let i = 0; i < count; ++i) {
    let ok;
    if (!isFloat) ok = g[i] === w[i];
    else {
      const a = g[i], b = w[i];
      if (Number.isNaN(a) || Number.isNaN(b)) ok = Number.isNaN(a) && Number.isNaN(b);
      else if (a === b) ok = true;
      else if (!Number.isFinite(a) || !Number.isFinite(b)) ok = false;
      else {
        const err = Math.abs(a - b);
        ok = err <= ATOL + RTOL * Math.abs(b);
        if (!ok) worst = Math.max(worst, err);
      }
    }
    if (!ok) { if (first < 0) first = i; ++bad; }
  }
  if (!bad) return null;
  let reason = `${name}: ${bad}/${count} differ, first [${first}] got ${fmt(g[first])} expected ${fmt(w[first])}`;
  if (worst) reason += `, max abs err ${fmt(worst)}`;
  return reason;
}

function harnessReason(manifest) {
  if (manifest.harness) return manifest.harness;
  for (const set of manifest.sets) {
    for (const v of [...set.inputs, ...set.outputs]) {
      if (v.harness) return v.harness;
      if (v.dtype && !ORT_TYPES.has(v.dtype)) return `harness: ${v.dtype} unsupported by onnxruntime-node`;
    }
  }
  return null;
}

// Drops ORT's "Load model from PATH failed:" and "/onnxruntime_src/FILE:LINE SIGNATURE(...)"
// prefixes so the reason fits on a line.
function shortError(msg) {
  let s = String(msg).replace(/Load model from \S+ failed:/, '');
  for (let at; (at = s.search(/\/onnxruntime_src\/\S+:\d+ /)) >= 0;) {
    let i = s.indexOf('(', at), depth = 0;
    if (i < 0) break;
    for (; i < s.length; ++i) {
      if (s[i] === '(') ++depth;
      else if (s[i] === ')' && --depth === 0) break;
    }
    s = s.slice(0, at) + s.slice(i + 1).replace(/^ *(const *)?/, '');
  }
  return oneLine(s);
}

function oneLine(s) { return String(s).replace(/\s+/g, ' ').trim().slice(0, 240); }

async function runCase(dir, opts) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const harness = harnessReason(manifest);
  if (harness) return ['HARNESS', harness];
  if (!manifest.sets.length) return ['HARNESS', 'harness: no test_data_set'];
  let session;
  try {
    session = await ort.InferenceSession.create(manifest.model, {
      graphOptimizationLevel: opts.opt, executionProviders: ['cpu'], logSeverityLevel: 3,
      intraOpNumThreads: opts.threads, interOpNumThreads: 1,
    });
  } catch (e) {
    // The JS wrapper rejects models whose graph inputs/outputs have a type it cannot name.
    if (/Unsupported data type/.test(e.message)) return ['HARNESS', 'harness: ' + oneLine(e.message)];
    return ['ERROR', 'load: ' + shortError(e.message)];
  }
  try {
    for (const set of manifest.sets) {
      const feeds = {};
      for (const v of set.inputs) if (!v.absent) feeds[v.name] = loadTensor(dir, v);
      let results;
      try {
        results = await session.run(feeds);
      } catch (e) {
        return ['ERROR', `${set.name}: ${shortError(e.message)}`];
      }
      for (const want of set.outputs) {
        if (want.absent) {
          if (results[want.name] != null) return ['FAIL', `${set.name}: ${want.name}: expected an empty optional`];
          continue;
        }
        const reason = compare(want.name, results[want.name], want, dir);
        if (reason) return ['FAIL', `${set.name}: ${reason}`];
      }
    }
    return ['PASS', `${manifest.sets.length} data set(s)`];
  } finally {
    await session.release();
  }
}

// Runs the cases in child processes so that a case which kills the process (a native abort
// in ORT or its binding) is recorded as ERROR and the remaining cases still run.
function supervise(root, opts, cases) {
  let rest = cases;
  while (rest.length) {
    const list = path.join(os.tmpdir(), `node_suite_${process.pid}.txt`);
    fs.writeFileSync(list, rest.join('\n') + '\n');
    const child = spawnSync(process.execPath, [__filename, root, '--worker', list, '--opt', opts.opt,
                                               '--threads', String(opts.threads)],
                            { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
    fs.unlinkSync(list);
    const done = new Set();
    for (const line of child.stdout.split('\n').filter(s => s)) {
      process.stdout.write(line + '\n');
      done.add(line.split('\t')[0]);
    }
    const left = rest.filter(c => !done.has(c));
    if (!left.length) break;
    if (child.status === 0) throw new Error(`worker exited without results for ${left[0]}`);
    const why = (child.stderr || '').split('\n').find(l => /FATAL|terminate|Abort|error/i.test(l)) || `exit ${child.status} ${child.signal || ''}`;
    process.stdout.write(`${left[0]}\tERROR\tprocess died: ${oneLine(why)}\n`);
    rest = left.slice(1);
  }
}

async function main() {
  const args = process.argv.slice(2);
  const opts = { opt: 'all', threads: 1 };
  let root = null, worker = null;
  const cases = [];
  for (let i = 0; i < args.length; ++i) {
    if (args[i] === '--opt') opts.opt = args[++i];
    else if (args[i] === '--threads') opts.threads = Number(args[++i]);
    else if (args[i] === '--worker') worker = args[++i];
    else if (root === null) root = args[i];
    else cases.push(args[i]);
  }
  if (!root) throw new Error('usage: node_suite.js CONVERTED_DIR [--opt LEVEL] [--threads N] [CASE ...]');
  if (worker) cases.push(...fs.readFileSync(worker, 'utf8').split('\n').filter(s => s));
  if (!cases.length) cases.push(...fs.readFileSync(path.join(root, 'cases.txt'), 'utf8').split('\n').filter(s => s));
  if (!worker) return supervise(root, opts, cases);
  for (const c of cases) {
    let status, reason;
    try {
      [status, reason] = await runCase(path.join(root, c), opts);
    } catch (e) {
      [status, reason] = ['ERROR', 'harness exception: ' + oneLine(e.message)];
    }
    process.stdout.write(`${c}\t${status}\t${oneLine(reason)}\n`);
  }
}

main().catch(e => { console.error('node_suite: ' + e.message); process.exit(1); });
