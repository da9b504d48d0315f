/**
 * glTF accessors to float64: component types, `normalized` integers, byteStride, matrix column
 * padding, sparse substitution, and range checks that name the accessor at fault.
 */
import type { GltfBuffers, Json } from './buffers.js';
import type { JsonFields } from './json-fields.js';

export const COMPONENT = { BYTE: 5120, UNSIGNED_BYTE: 5121, SHORT: 5122, UNSIGNED_SHORT: 5123, UNSIGNED_INT: 5125, FLOAT: 5126 } as const;
const COMPONENT_NAMES: Record<number, string> = { 5120: 'BYTE', 5121: 'UNSIGNED_BYTE', 5122: 'SHORT', 5123: 'UNSIGNED_SHORT', 5125: 'UNSIGNED_INT', 5126: 'FLOAT' };
const COMPONENT_SIZE: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
export const TYPE_SIZE: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

export interface AccessorData {
  /** count x components, as float64 (normalized integers mapped to [0, 1] or [-1, 1]). */
  data: Float64Array;
  count: number;
  components: number;
  type: string;
  componentType: number;
  normalized: boolean;
}

export interface AccessorRequirements {
  /** Allowed types (e.g. ['VEC3']). */
  types: readonly string[];
  /** Allowed component types; float is checked for finite values. */
  componentTypes: readonly number[];
  /** Whether integer components must (true) or must not (false) be normalized; any if omitted. */
  normalized?: boolean;
}

export class GltfAccessors {
  private readonly accessors: unknown[];
  private readonly cache = new Map<number, AccessorData>();

  constructor(private readonly f: JsonFields, root: Json, private readonly buffers: GltfBuffers) {
    this.accessors = f.optionalArray(root, 'accessors', '');
  }

  get count(): number {
    return this.accessors.length;
  }

  /** Checks every accessor's fields and byte range, without reading data. */
  validate(): void {
    for (let i = 0; i < this.accessors.length; i++) this.header(i);
  }

  /** Accessor i's fields, its byte range checked against its buffer view's. */
  private header(i: number) {
    const f = this.f;
    const path = `accessors[${i}]`;
    const a = f.object(this.accessors[i], path);
    const componentType = f.integer(a.componentType, `${path}.componentType`, 0);
    if (!(componentType in COMPONENT_SIZE)) f.fail(`${path}.componentType`, 'one of 5120, 5121, 5122, 5123, 5125, 5126', componentType);
    const type = f.string(a.type, `${path}.type`);
    if (!(type in TYPE_SIZE)) f.fail(`${path}.type`, 'SCALAR, VEC2, VEC3, VEC4, MAT2, MAT3 or MAT4', type);
    const count = f.integer(a.count, `${path}.count`, 1);
    if (count > 1e8) f.fail(`${path}.count`, 'at most 10^8 elements', count);
    const normalized = a.normalized === undefined ? false : a.normalized === true ? true : a.normalized === false ? false : f.fail(`${path}.normalized`, 'true or false', a.normalized);
    if (normalized && (componentType === COMPONENT.FLOAT || componentType === COMPONENT.UNSIGNED_INT)) f.fail(`${path}.normalized`, `false for ${COMPONENT_NAMES[componentType]} components`, true);
    const comps = TYPE_SIZE[type];
    const size = COMPONENT_SIZE[componentType];
    // matrix columns start on 4-byte boundaries: MAT2/MAT3 of bytes and MAT3 of shorts are padded
    const rows = type === 'MAT2' ? 2 : type === 'MAT3' ? 3 : type === 'MAT4' ? 4 : comps;
    const columns = comps / rows;
    const columnBytes = type.startsWith('MAT') ? Math.ceil((rows * size) / 4) * 4 : rows * size;
    const elementBytes = columnBytes * columns;
    let view: number | undefined, byteOffset = 0, stride = elementBytes;
    if (a.bufferView !== undefined) {
      view = f.index(a.bufferView, `${path}.bufferView`, this.buffers.viewCount, 'bufferViews');
      const range = this.buffers.viewRange(view);
      byteOffset = a.byteOffset === undefined ? 0 : f.integer(a.byteOffset, `${path}.byteOffset`, 0);
      stride = range.stride ?? elementBytes;
      if (stride < elementBytes) f.fail(`${range.path}.byteStride`, `at least the ${elementBytes}-byte element of ${path}`, stride);
      const need = byteOffset + stride * (count - 1) + elementBytes;
      if (need > range.byteLength) {
        f.fail(`${path}.count`, `${count} elements of ${elementBytes} bytes (stride ${stride}) from byte ${byteOffset} to fit in ${range.path} (${range.byteLength} bytes; ${need} needed)`, count);
      }
    } else if (a.byteOffset !== undefined && a.byteOffset !== 0) {
      f.fail(`${path}.byteOffset`, 'no byteOffset without a bufferView', a.byteOffset);
    }
    if (a.sparse !== undefined) f.object(a.sparse, `${path}.sparse`);
    return { a, path, componentType, type, count, normalized, comps, rows, columns, columnBytes, elementBytes, view, byteOffset, stride };
  }

  /** Reads accessor `index` (referenced from `refPath`) and checks it meets `req`. */
  read(index: unknown, refPath: string, req: AccessorRequirements): AccessorData {
    const f = this.f;
    const i = f.index(index, refPath, this.accessors.length, 'accessors');
    const h = this.header(i);
    const { a, path, componentType, type, count, normalized, comps, rows, columns, columnBytes, elementBytes } = h;
    const use = `${path} (used as ${refPath})`;
    if (!req.types.includes(type)) f.fail(`${use}.type`, req.types.join(' or '), type);
    if (!req.componentTypes.includes(componentType)) f.fail(`${use}.componentType`, req.componentTypes.map((c) => `${c} (${COMPONENT_NAMES[c]})`).join(' or '), componentType);
    if (req.normalized !== undefined && componentType !== COMPONENT.FLOAT && normalized !== req.normalized) {
      f.fail(`${use}.normalized`, String(req.normalized), normalized);
    }
    const cached = this.cache.get(i);
    if (cached) return cached;
    const data = new Float64Array(count * comps);
    if (h.view !== undefined) {
      const view = this.buffers.view(h.view);
      readElements(view.bytes, h.byteOffset, h.stride, count, rows, columns, columnBytes, componentType, normalized, data);
    }
    if (a.sparse !== undefined) this.applySparse(f.object(a.sparse, `${path}.sparse`), `${path}.sparse`, count, comps, rows, columns, columnBytes, elementBytes, componentType, normalized, data);
    if (componentType === COMPONENT.FLOAT) {
      for (let k = 0; k < data.length; k++) {
        if (!Number.isFinite(data[k])) f.fail(`${path}`, `finite values (element ${Math.floor(k / comps)}, component ${k % comps})`, String(data[k]));
      }
    }
    const result = { data, count, components: comps, type, componentType, normalized };
    this.cache.set(i, result);
    return result;
  }

  private applySparse(
    s: Json, path: string, count: number, comps: number, rows: number, columns: number, columnBytes: number, elementBytes: number,
    componentType: number, normalized: boolean, data: Float64Array,
  ): void {
    const f = this.f;
    const n = f.integer(s.count, `${path}.count`, 1, count);
    const ind = f.object(s.indices, `${path}.indices`);
    const indexType = f.integer(ind.componentType, `${path}.indices.componentType`, 0);
    if (indexType !== COMPONENT.UNSIGNED_BYTE && indexType !== COMPONENT.UNSIGNED_SHORT && indexType !== COMPONENT.UNSIGNED_INT) {
      f.fail(`${path}.indices.componentType`, '5121, 5123 or 5125', indexType);
    }
    const iv = this.buffers.view(f.index(ind.bufferView, `${path}.indices.bufferView`, this.buffers.viewCount, 'bufferViews'));
    const io = ind.byteOffset === undefined ? 0 : f.integer(ind.byteOffset, `${path}.indices.byteOffset`, 0);
    const isize = COMPONENT_SIZE[indexType];
    if (io + n * isize > iv.bytes.length) f.fail(`${path}.count`, `${n} indices from byte ${io} to fit in ${iv.path} (${iv.bytes.length} bytes)`, n);
    const indices = new Float64Array(n);
    readElements(iv.bytes, io, isize, n, 1, 1, isize, indexType, false, indices);
    for (let k = 0; k < n; k++) {
      if (indices[k] >= count) f.fail(`${path}.indices`, `indices below the accessor's count ${count} (index ${k})`, indices[k]);
      if (k > 0 && indices[k] <= indices[k - 1]) f.fail(`${path}.indices`, `strictly increasing indices (index ${k})`, `${indices[k]} after ${indices[k - 1]}`);
    }
    const vals = f.object(s.values, `${path}.values`);
    const vv = this.buffers.view(f.index(vals.bufferView, `${path}.values.bufferView`, this.buffers.viewCount, 'bufferViews'));
    const vo = vals.byteOffset === undefined ? 0 : f.integer(vals.byteOffset, `${path}.values.byteOffset`, 0);
    if (vo + n * elementBytes > vv.bytes.length) f.fail(`${path}.count`, `${n} values from byte ${vo} to fit in ${vv.path} (${vv.bytes.length} bytes)`, n);
    const values = new Float64Array(n * comps);
    readElements(vv.bytes, vo, elementBytes, n, rows, columns, columnBytes, componentType, normalized, values);
    for (let k = 0; k < n; k++) for (let c = 0; c < comps; c++) data[indices[k] * comps + c] = values[k * comps + c];
  }
}

/** Reads count elements (columns x rows components, column-major, each column columnBytes long) into out. */
function readElements(
  bytes: Uint8Array, offset: number, stride: number, count: number, rows: number, columns: number, columnBytes: number,
  componentType: number, normalized: boolean, out: Float64Array,
): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const size = COMPONENT_SIZE[componentType];
  let o = 0;
  for (let e = 0; e < count; e++) {
    const base = offset + e * stride;
    for (let c = 0; c < columns; c++) {
      for (let r = 0; r < rows; r++) {
        const p = base + c * columnBytes + r * size;
        let v: number;
        switch (componentType) {
          case 5126: v = view.getFloat32(p, true); break;
          case 5121: v = view.getUint8(p); if (normalized) v /= 255; break;
          case 5123: v = view.getUint16(p, true); if (normalized) v /= 65535; break;
          case 5120: v = view.getInt8(p); if (normalized) v = Math.max(v / 127, -1); break;
          case 5122: v = view.getInt16(p, true); if (normalized) v = Math.max(v / 32767, -1); break;
          default: v = view.getUint32(p, true);
        }
        out[o++] = v;
      }
    }
  }
}
