#!/usr/bin/env node
// Runs a model on ONNX Runtime (CPU): the reference for differential tests and the
// baseline for benchmarks.
//   node run_ort.js MODEL --input NAME=FILE.npy ... [--out-dir DIR] [--iterations K] [--warmup W] [--threads N] [--json]
// Writes each output as DIR/<name>.npy; with --iterations prints latency stats.
// Several input sets run on one session: each --out-dir ends the set of --input
// before it (`--input x=a.npy --out-dir A --input x=b.npy --out-dir B`; a later set
// keeps an earlier set's file for an input it does not name; with one --out-dir the
// order does not matter). --iterations times the first set.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const NPY_TYPES = {
  '<f4': ['float32', Float32Array], '<f2': ['float16', Uint16Array], '<f8': ['float64', Float64Array], '|i1': ['int8', Int8Array],
  '|u1': ['uint8', Uint8Array], '<i2': ['int16', Int16Array], '<u2': ['uint16', Uint16Array],
  '<i4': ['int32', Int32Array], '<u4': ['uint32', Uint32Array], '<i8': ['int64', BigInt64Array],
  '<u8': ['uint64', BigUint64Array], '|b1': ['bool', Uint8Array],
};

// A .npy file's element type (onnxruntime-node's name), shape and elements (a typed
// array over a fresh buffer: typed arrays need aligned offsets). node_suite.js reads
// its cases' .npy files through this too.
function readNpyArray(file) {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: fortran order`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  const [type, Arr] = NPY_TYPES[descr] || [];
  if (!type) throw new Error(`${file}: unsupported dtype ${descr}`);
  const offset = start + headerLen;
  const count = shape.reduce((a, b) => a * b, 1);
  const bytes = buf.subarray(offset, offset + count * Arr.BYTES_PER_ELEMENT);
  return { type, shape, data: new Arr(new Uint8Array(bytes).buffer, 0, count) };
}

function readNpy(file) {
  const { type, shape, data } = readNpyArray(file);
  return new ort.Tensor(type, type === 'bool' ? Uint8Array.from(data) : data, shape);
}

function writeNpy(file, tensor) {
  const entry = Object.entries(NPY_TYPES).find(([, [t]]) => t === tensor.type);
  if (!entry) throw new Error(`cannot write ${tensor.type} as .npy`);
  const shape = tensor.dims.length === 1 ? `(${tensor.dims[0]},)` : `(${tensor.dims.join(', ')})`;
  let header = `{'descr': '${entry[0]}', 'fortran_order': False, 'shape': ${shape}, }`;
  while ((10 + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1; pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const data = tensor.type === 'bool' ? Buffer.from(Uint8Array.from(tensor.data, v => (v ? 1 : 0)))
                                      : Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), data]));
}

async function main() {
  const args = process.argv.slice(2);
  const opts = { inputs: {}, outDir: null, iterations: 0, warmup: 3, threads: 0, json: false };
  const sets = [];  // [{inputs, outDir}], one run each
  let model = null;
  for (let i = 0; i < args.length; ++i) {
    const a = args[i];
    if (a === '--input') { const [k, v] = args[++i].split('='); opts.inputs[k] = v; }
    else if (a === '--out-dir') { opts.outDir = args[++i]; sets.push({ inputs: { ...opts.inputs }, outDir: opts.outDir }); }
    else if (a === '--iterations') opts.iterations = Number(args[++i]);
    else if (a === '--warmup') opts.warmup = Number(args[++i]);
    else if (a === '--threads') opts.threads = Number(args[++i]);
    else if (a === '--json') opts.json = true;
    else model = a;
  }
  if (!model) throw new Error('usage: run_ort.js MODEL --input NAME=FILE.npy ...');
  const sessionOptions = { graphOptimizationLevel: 'all' };
  if (opts.threads > 0) sessionOptions.intraOpNumThreads = opts.threads;
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(model, sessionOptions);
  const sessionMs = performance.now() - t0;
  const readFeeds = inputs => {
    const feeds = {};
    for (const [name, file] of Object.entries(inputs)) feeds[name] = readNpy(file);
    return feeds;
  };
  // One --out-dir (or none) takes every --input wherever it stands, as before sets.
  if (sets.length <= 1) sets.splice(0, sets.length, { inputs: opts.inputs, outDir: opts.outDir });
  const feeds = readFeeds(sets[0].inputs);
  let firstMs = 0;
  for (const [i, set] of sets.entries()) {
    const t1 = performance.now();
    const results = await session.run(i === 0 ? feeds : readFeeds(set.inputs));
    if (i === 0) firstMs = performance.now() - t1;
    if (set.outDir) {
      fs.mkdirSync(set.outDir, { recursive: true });
      for (const [name, t] of Object.entries(results)) writeNpy(path.join(set.outDir, name.replace(/[\/\\:]/g, '_') + '.npy'), t);
    }
  }
  if (opts.iterations > 0) {
    for (let i = 0; i < opts.warmup; ++i) await session.run(feeds);
    const ms = [];
    for (let i = 0; i < opts.iterations; ++i) {
      const s = performance.now();
      await session.run(feeds);
      ms.push(performance.now() - s);
    }
    ms.sort((a, b) => a - b);
    const pct = p => ms[Math.min(ms.length - 1, Math.round(p / 100 * (ms.length - 1)))];
    const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
    const stats = { engine: 'onnxruntime-node ' + require('onnxruntime-node/package.json').version, iterations: ms.length,
                    min_ms: ms[0], median_ms: pct(50), mean_ms: mean, p90_ms: pct(90), max_ms: ms[ms.length - 1],
                    session_ms: sessionMs, first_run_ms: firstMs };
    console.log(opts.json ? JSON.stringify(stats) : stats);
  }
}

module.exports = { readNpy, readNpyArray, writeNpy };

if (require.main === module) {
  main().catch(e => { console.error('run_ort: ' + e.message); process.exit(1); });
}
