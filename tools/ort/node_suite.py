#!/usr/bin/python3
"""Converts ONNX backend node tests into .npy files plus a manifest per case, for
node_suite.js to run on onnxruntime-node.

  /usr/bin/python3 tools/ort/node_suite.py OUT_DIR [--data DIR] [CASE ...]

For each case folder (all of DIR, default ../shared/onnx-backend-data/node, or the
CASEs given) writes OUT_DIR/<case>/manifest.json and one file per tensor:
  - numpy-expressible tensors as .npy (float16 as '<f2'),
  - strings inline in the manifest,
  - int4/uint4, bfloat16, float8*, float4, int2/uint2 as their raw little-endian
    storage (.bin, packed as in TensorProto.raw_data) with a dtype tag.
Sequence inputs/outputs and optionals that hold no tensor get a "harness" reason.

TensorProto is decoded from the wire format here rather than with onnx.numpy_helper:
the installed onnx (1.12) predates the float8/int4/float4/int2 enum values of the test
data (onnx 1.22), so its parser drops data_type for those tensors.
"""
import json
import os
import struct
import sys

import numpy as np
import onnx

# TensorProto.DataType -> (tag, numpy dtype or None when stored raw, bits per element)
DTYPES = {
    1: ('float32', '<f4', 32), 2: ('uint8', '|u1', 8), 3: ('int8', '|i1', 8),
    4: ('uint16', '<u2', 16), 5: ('int16', '<i2', 16), 6: ('int32', '<i4', 32),
    7: ('int64', '<i8', 64), 8: ('string', None, 0), 9: ('bool', '|b1', 8),
    10: ('float16', '<f2', 16), 11: ('float64', '<f8', 64), 12: ('uint32', '<u4', 32),
    13: ('uint64', '<u8', 64), 14: ('complex64', '<c8', 64), 15: ('complex128', '<c16', 128),
    16: ('bfloat16', None, 16), 17: ('float8e4m3fn', None, 8), 18: ('float8e4m3fnuz', None, 8),
    19: ('float8e5m2', None, 8), 20: ('float8e5m2fnuz', None, 8), 21: ('uint4', None, 4),
    22: ('int4', None, 4), 23: ('float4e2m1', None, 4), 24: ('float8e8m0', None, 8),
    25: ('uint2', None, 2), 26: ('int2', None, 2),
}


def _varint(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


def _fields(buf):
    """Yields (field number, wire type, value) of one protobuf message."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        num, wt = key >> 3, key & 7
        if wt == 0:
            val, pos = _varint(buf, pos)
        elif wt == 1:
            val, pos = buf[pos:pos + 8], pos + 8
        elif wt == 2:
            n, pos = _varint(buf, pos)
            val, pos = buf[pos:pos + n], pos + n
        elif wt == 5:
            val, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f'unsupported wire type {wt}')
        yield num, wt, val


def _packed_varints(val, wt):
    if wt == 0:
        return [val]
    out, pos = [], 0
    while pos < len(val):
        v, pos = _varint(val, pos)
        out.append(v)
    return out


def _signed(v, bits=64):
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def parse_tensor(buf):
    """Returns dict(dtype code, dims, raw bytes or None, typed field lists, strings, external)."""
    t = {'data_type': 0, 'dims': [], 'raw': None, 'float': [], 'int32': [], 'int64': [],
         'double': [], 'uint64': [], 'strings': [], 'external': False, 'name': ''}
    for num, wt, val in _fields(buf):
        if num == 1:
            t['dims'] += [_signed(v) for v in _packed_varints(val, wt)]
        elif num == 2:
            t['data_type'] = val
        elif num == 4:
            t['float'] += list(struct.unpack(f'<{len(val) // 4}f', val)) if wt == 2 else list(struct.unpack('<f', val))
        elif num == 5:
            t['int32'] += [_signed(v) for v in _packed_varints(val, wt)]
        elif num == 6:
            t['strings'].append(bytes(val))
        elif num == 7:
            t['int64'] += [_signed(v) for v in _packed_varints(val, wt)]
        elif num == 8:
            t['name'] = bytes(val).decode()
        elif num == 9:
            t['raw'] = bytes(val)
        elif num == 10:
            t['double'] += list(struct.unpack(f'<{len(val) // 8}d', val)) if wt == 2 else list(struct.unpack('<d', val))
        elif num == 11:
            t['uint64'] += _packed_varints(val, wt)
        elif num == 13:
            t['external'] = True
        elif num == 14 and val == 1:
            t['external'] = True
    return t


def tensor_storage(t):
    """Returns (tag, shape, payload) with payload an ndarray, raw bytes, or a list of str."""
    code = t['data_type']
    if code not in DTYPES:
        raise ValueError(f'unknown TensorProto data_type {code}')
    if t['external']:
        raise ValueError('external data')
    tag, npdt, bits = DTYPES[code]
    shape = t['dims']
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if tag == 'string':
        return tag, shape, [s.decode('utf-8', 'surrogateescape') for s in t['strings']]
    if npdt is not None:
        if t['raw'] is not None:
            arr = np.frombuffer(t['raw'], dtype=npdt, count=count)
        elif tag in ('float32', 'complex64'):
            arr = np.array(t['float'], dtype='<f4').view(npdt)
        elif tag in ('float64', 'complex128'):
            arr = np.array(t['double'], dtype='<f8').view(npdt)
        elif tag == 'int64':
            arr = np.array(t['int64'], dtype=npdt)
        elif tag in ('uint32', 'uint64'):
            arr = np.array(t['uint64'], dtype=npdt)
        elif tag == 'float16':
            arr = np.array(t['int32'], dtype='<u2').view('<f2')
        else:
            arr = np.array(t['int32'], dtype=npdt)
        return tag, shape, arr.reshape(shape)
    # Raw storage of sub-byte / non-numpy types, packed low bits first as raw_data is.
    nbytes = (count * bits + 7) // 8
    if t['raw'] is not None:
        data = t['raw'][:nbytes]
    elif bits >= 8:
        # bfloat16 / float8 in int32_data: one element (its bit pattern) per int32.
        data = np.array(t['int32'], dtype=np.int64).astype(f'<u{bits // 8}').tobytes()
    else:
        # int4/uint4/float4/int2 in int32_data: each int32 holds one packed byte.
        data = np.array(t['int32'], dtype=np.int64).astype(np.uint8).tobytes()
    if len(data) != nbytes:
        raise ValueError(f'{tag}: {len(data)} bytes for {count} elements')
    return tag, shape, data


def write_tensor(buf, out_dir, stem):
    tag, shape, payload = tensor_storage(parse_tensor(buf))
    entry = {'kind': 'tensor', 'dtype': tag, 'shape': list(shape)}
    if isinstance(payload, list):
        entry['strings'] = payload
    elif isinstance(payload, bytes):
        entry['file'] = stem + '.bin'
        entry['encoding'] = 'raw'
        with open(os.path.join(out_dir, entry['file']), 'wb') as f:
            f.write(payload)
    else:
        entry['file'] = stem + '.npy'
        entry['encoding'] = 'npy'
        np.save(os.path.join(out_dir, entry['file']), np.ascontiguousarray(payload))
    return entry


def value_kind(type_proto):
    which = type_proto.WhichOneof('value')
    return {'tensor_type': 'tensor', 'sequence_type': 'sequence', 'optional_type': 'optional',
            'map_type': 'map', 'sparse_tensor_type': 'sparse'}.get(which, which or 'unknown')


def convert_value(path, kind, out_dir, stem, is_input):
    with open(path, 'rb') as f:
        buf = f.read()
    if kind == 'tensor':
        return write_tensor(buf, out_dir, stem)
    if kind == 'optional':
        opt = onnx.OptionalProto()
        opt.ParseFromString(buf)
        if opt.HasField('tensor_value'):
            entry = write_tensor(opt.tensor_value.SerializeToString(), out_dir, stem)
            entry['optional'] = True
            return entry
        if not any(opt.HasField(f) for f in ('sparse_tensor_value', 'sequence_value', 'map_value', 'optional_value')):
            if is_input:
                # onnxruntime-node cannot build an empty optional value to feed.
                return {'kind': 'optional', 'harness': 'harness: sequence/optional (empty optional input)'}
            return {'kind': 'optional', 'absent': True}
        return {'kind': 'optional', 'harness': 'harness: sequence/optional (optional of non-tensor)'}
    return {'kind': kind, 'harness': f'harness: sequence/optional ({kind} value)'}


def convert_case(case_dir, out_root):
    case = os.path.basename(os.path.normpath(case_dir))
    out_dir = os.path.join(out_root, case)
    os.makedirs(out_dir, exist_ok=True)
    model = onnx.load(os.path.join(case_dir, 'model.onnx'))
    ops = sorted({n.op_type for n in model.graph.node})
    manifest = {'case': case, 'model': os.path.abspath(os.path.join(case_dir, 'model.onnx')),
                'ops': ops, 'sets': []}
    graph_in = [(v.name, value_kind(v.type)) for v in model.graph.input]
    graph_out = [(v.name, value_kind(v.type)) for v in model.graph.output]
    sets = sorted(d for d in os.listdir(case_dir) if d.startswith('test_data_set_'))
    try:
        for s in sets:
            sdir = os.path.join(case_dir, s)
            files = os.listdir(sdir)
            n_in = sum(1 for f in files if f.startswith('input_') and f.endswith('.pb'))
            n_out = sum(1 for f in files if f.startswith('output_') and f.endswith('.pb'))
            if n_in > len(graph_in) or n_out > len(graph_out):
                raise ValueError(f'{s}: {n_in} inputs / {n_out} outputs for a graph of '
                                 f'{len(graph_in)} / {len(graph_out)}')
            entry = {'name': s, 'inputs': [], 'outputs': []}
            for i in range(n_in):
                name, kind = graph_in[i]
                v = convert_value(os.path.join(sdir, f'input_{i}.pb'), kind, out_dir, f'{s}_in{i}', True)
                v['name'] = name
                entry['inputs'].append(v)
            for i in range(n_out):
                name, kind = graph_out[i]
                v = convert_value(os.path.join(sdir, f'output_{i}.pb'), kind, out_dir, f'{s}_out{i}', False)
                v['name'] = name
                entry['outputs'].append(v)
            manifest['sets'].append(entry)
    except (ValueError, IndexError, struct.error) as e:
        manifest['harness'] = f'harness: cannot convert test data: {e}'
    with open(os.path.join(out_dir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f)
    return case


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    data = os.path.normpath(os.path.join(here, '..', '..', '..', 'shared', 'onnx-backend-data', 'node'))
    if not os.path.isdir(data):
        data = '/work/shared/onnx-backend-data/node'
    args, cases = list(argv), []
    out_root = None
    while args:
        a = args.pop(0)
        if a == '--data':
            data = args.pop(0)
        elif out_root is None:
            out_root = a
        else:
            cases.append(a)
    if out_root is None:
        sys.exit('usage: node_suite.py OUT_DIR [--data NODE_DIR] [CASE ...]')
    if not cases:
        cases = sorted(d for d in os.listdir(data) if os.path.isfile(os.path.join(data, d, 'model.onnx')))
    os.makedirs(out_root, exist_ok=True)
    for c in cases:
        convert_case(os.path.join(data, os.path.basename(c.rstrip('/'))), out_root)
    with open(os.path.join(out_root, 'cases.txt'), 'w') as f:
        f.write(''.join(os.path.basename(c.rstrip('/')) + '\n' for c in cases))
    print(f'node_suite.py: converted {len(cases)} cases into {out_root}', file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv[1:])
