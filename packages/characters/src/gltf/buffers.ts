/**
 * glTF buffers and buffer views: the bytes behind accessors. A buffer is the glb BIN chunk
 * (buffer 0 without a uri), a base64 data URI, or an external file the caller passes in
 * `resources`. Each is decoded once, when an accessor first needs it.
 */
import { decodeBase64 } from './base64.js';
import type { Json, JsonFields } from './json-fields.js';

export interface BufferViewBytes {
  bytes: Uint8Array;
  /** byteStride, or undefined for tightly packed data. */
  stride: number | undefined;
  path: string;
}

export class GltfBuffers {
  private readonly buffers: unknown[];
  private readonly views: unknown[];
  private readonly decoded = new Map<number, Uint8Array>();

  constructor(
    private readonly f: JsonFields,
    root: Json,
    private readonly bin: Uint8Array | undefined,
    private readonly resources: Readonly<Record<string, Uint8Array>>,
  ) {
    this.buffers = f.optionalArray(root, 'buffers', '');
    this.views = f.optionalArray(root, 'bufferViews', '');
  }

  get viewCount(): number {
    return this.views.length;
  }

  /** The declared bytes of buffer i. */
  buffer(i: number): Uint8Array {
    const cached = this.decoded.get(i);
    if (cached) return cached;
    const f = this.f, path = `buffers[${i}]`;
    const b = f.object(this.buffers[i], path);
    const byteLength = f.integer(b.byteLength, `${path}.byteLength`, 1);
    let data: Uint8Array;
    if (b.uri === undefined) {
      if (!this.bin) f.fail(`${path}.uri`, i === 0 ? 'a uri, or the BIN chunk of a .glb' : 'a uri (only buffer 0 may use the glb BIN chunk)', 'none');
      if (i !== 0) f.fail(`${path}.uri`, 'a uri (only buffer 0 may use the glb BIN chunk)', 'none');
      data = this.bin!;
    } else {
      const uri = f.string(b.uri, `${path}.uri`);
      if (uri.startsWith('data:')) {
        const comma = uri.indexOf(',');
        if (comma < 0 || !/;base64$/i.test(uri.slice(0, comma))) f.fail(`${path}.uri`, 'a base64 data URI (data:...;base64,...)', uri.slice(0, 40));
        const bytes = decodeBase64(uri, comma + 1);
        if (!bytes) f.fail(`${path}.uri`, 'valid base64 data', 'a character outside the base64 alphabet or a bad length');
        data = bytes!;
      } else {
        const ext = this.resources[uri] ?? this.resources[decodeURIComponentSafe(uri)];
        if (!ext) f.fail(`${path}.uri`, `the external file "${uri}" in options.resources`, 'nothing');
        data = ext!;
      }
    }
    if (data.length < byteLength) f.fail(`${path}.byteLength`, `at most the ${data.length} bytes of data present (truncated buffer?)`, byteLength);
    data = data.subarray(0, byteLength);
    this.decoded.set(i, data);
    return data;
  }

  /** Checks every buffer's declared length and every buffer view's range, without decoding data. */
  validate(): void {
    for (let i = 0; i < this.buffers.length; i++) this.f.integer(this.f.object(this.buffers[i], `buffers[${i}]`).byteLength, `buffers[${i}].byteLength`, 1);
    for (let i = 0; i < this.views.length; i++) this.viewRange(i);
  }

  /** Buffer view i's fields, its range checked against the declared length of its buffer. */
  viewRange(i: number): { buffer: number; byteOffset: number; byteLength: number; stride: number | undefined; path: string } {
    const f = this.f, path = `bufferViews[${i}]`;
    const v = f.object(this.views[i], path);
    const bi = f.index(v.buffer, `${path}.buffer`, this.buffers.length, 'buffers');
    const byteOffset = v.byteOffset === undefined ? 0 : f.integer(v.byteOffset, `${path}.byteOffset`, 0);
    const byteLength = f.integer(v.byteLength, `${path}.byteLength`, 1);
    const stride = v.byteStride === undefined ? undefined : f.integer(v.byteStride, `${path}.byteStride`, 4, 252);
    if (stride !== undefined && stride % 4 !== 0) f.fail(`${path}.byteStride`, 'a multiple of 4', stride);
    const declared = f.integer(f.object(this.buffers[bi], `buffers[${bi}]`).byteLength, `buffers[${bi}].byteLength`, 1);
    if (byteOffset + byteLength > declared) {
      f.fail(`${path}.byteLength`, `byteOffset ${byteOffset} + byteLength to fit in buffers[${bi}] (${declared} bytes)`, byteLength);
    }
    return { buffer: bi, byteOffset, byteLength, stride, path };
  }

  /** The bytes of buffer view i, range-checked against its buffer. */
  view(i: number): BufferViewBytes {
    const { buffer, byteOffset, byteLength, stride, path } = this.viewRange(i);
    const buf = this.buffer(buffer);
    return { bytes: buf.subarray(byteOffset, byteOffset + byteLength), stride, path };
  }
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export type { Json };
