#!/usr/bin/env node
// Runs every case of a differential-sweep corpus on ONNX Runtime (CPU) in one process:
//   node sweep_ort.js CORPUS_DIR
// CORPUS_DIR/manifest.json lists the cases ({id, inputs}); each case folder holds
// model.onnx and in_<i>.npy. Writes ort_<k>.npy per output (in the model's output
// order) into the case folder, or ort_error.txt with ONNX Runtime's message when it
// cannot load or run the case, and prints one summary line.
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const { readNpy, writeNpy } = require('./run_ort.js');

async function main() {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: sweep_ort.js CORPUS_DIR');
  const cases = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  let ran = 0, refused = 0;
  for (const c of cases) {
    const cdir = path.join(dir, c.id);
    for (const f of fs.readdirSync(cdir)) if (f.startsWith('ort_')) fs.unlinkSync(path.join(cdir, f));
    try {
      const session = await ort.InferenceSession.create(path.join(cdir, 'model.onnx'),
                                                        { graphOptimizationLevel: 'all', intraOpNumThreads: 1 });
      const feeds = {};
      c.inputs.forEach((name, i) => { feeds[name] = readNpy(path.join(cdir, `in_${i}.npy`)); });
      const results = await session.run(feeds);
      session.outputNames.forEach((name, k) => writeNpy(path.join(cdir, `ort_${k}.npy`), results[name]));
      ++ran;
    } catch (e) {
      fs.writeFileSync(path.join(cdir, 'ort_error.txt'), String(e.message || e).split('\n')[0]);
      ++refused;
    }
  }
  console.log(`sweep_ort: ${ran} cases ran on onnxruntime-node ${require('onnxruntime-node/package.json').version}, ${refused} refused`);
}

main().catch(e => { console.error('sweep_ort: ' + e.message); process.exit(1); });
