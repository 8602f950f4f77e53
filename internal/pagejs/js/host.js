(() => {
  const call = globalThis.__glassHostCall;
  if (typeof call !== "function" || globalThis.glassHost) return;
  const stringify = JSON.stringify, parse = JSON.parse;
  // What the signature touches is taken now, before any page script runs:
  // typed arrays (their indices never reach a prototype a page could
  // give setters), Reflect.apply and charCodeAt, the random source.
  const U8 = Uint8Array, U32 = Uint32Array, apply = Reflect.apply, codeAt = String.prototype.charCodeAt;
  const random = crypto.getRandomValues.bind(crypto);
  const KEY = GLASS_KEY;
  const HEX = "0123456789abcdef";
  const K = new U32([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);
  const IV = new U32([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  // sha256 of the first n bytes of m (n < 2^29).
  const sha256 = (m, n) => {
    const total = ((n + 72) >>> 6) << 6;
    const buf = new U8(total);
    for (let i = 0; i < n; i++) buf[i] = m[i];
    buf[n] = 0x80;
    const bits = n * 8;
    buf[total - 4] = bits >>> 24;
    buf[total - 3] = bits >>> 16;
    buf[total - 2] = bits >>> 8;
    buf[total - 1] = bits;
    const H = new U32(8), w = new U32(64);
    for (let i = 0; i < 8; i++) H[i] = IV[i];
    for (let off = 0; off < total; off += 64) {
      for (let t = 0; t < 16; t++) {
        const j = off + 4 * t;
        w[t] = (buf[j] << 24) | (buf[j + 1] << 16) | (buf[j + 2] << 8) | buf[j + 3];
      }
      for (let t = 16; t < 64; t++) {
        const x = w[t - 15], y = w[t - 2];
        const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
        const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
      }
      let a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
      for (let t = 0; t < 64; t++) {
        const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
        const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
    }
    const out = new U8(32);
    for (let i = 0; i < 8; i++) {
      out[4 * i] = H[i] >>> 24;
      out[4 * i + 1] = H[i] >>> 16;
      out[4 * i + 2] = H[i] >>> 8;
      out[4 * i + 3] = H[i];
    }
    return out;
  };
  // mac is HMAC-SHA256 under KEY (its characters as bytes) of text as
  // UTF-16 code units, big-endian, in hex.
  const mac = (text) => {
    const n = text.length;
    const inner = new U8(64 + 2 * n), outer = new U8(64 + 32);
    for (let i = 0; i < 64; i++) {
      const k = i < KEY.length ? apply(codeAt, KEY, [i]) : 0;
      inner[i] = k ^ 0x36;
      outer[i] = k ^ 0x5c;
    }
    for (let i = 0; i < n; i++) {
      const c = apply(codeAt, text, [i]);
      inner[64 + 2 * i] = c >>> 8;
      inner[65 + 2 * i] = c;
    }
    const ih = sha256(inner, inner.length);
    for (let i = 0; i < 32; i++) outer[64 + i] = ih[i];
    const d = sha256(outer, outer.length);
    let s = "";
    for (let i = 0; i < 32; i++) s += HEX[d[i] >>> 4] + HEX[d[i] & 15];
    return s;
  };
  // Every message is signed: Playwright's binding layer hands it to the
  // page's own JSON.stringify, so a page script may read it, but not sign
  // one of its own. doc and seq make each signature one the host accepts
  // once.
  const docBytes = random(new U8(8));
  let doc = "";
  for (let i = 0; i < 8; i++) doc += HEX[docBytes[i] >>> 4] + HEX[docBytes[i] & 15];
  let seq = 0;
  const send = (type, request) => {
    let body;
    try { body = stringify(request); } catch (_) { body = undefined; }
    if (typeof body !== "string") body = "null";
    seq++;
    const sig = mac(doc + "\n" + seq + "\n" + type + "\n" + body);
    return call('{"doc":"' + doc + '","seq":' + seq + ',"mac":"' + sig + '","type":"' + type + '","request":' + body + "}").then((s) => {
      const answer = parse(s);
      if (answer && answer.fail === true) throw "the confirmation channel failed"; // glasstest.ConfirmChannelFails
      return answer;
    });
  };
  const host = { protocol: "glass.page/v1" };
  if (GLASS_WITH_CONFIRM) host.confirm = (request) => send("confirm", request);
  if (GLASS_WITH_HANDOFF) host.handoff = (request) => send("handoff", request);
  let pinned, isPinned = false;
  Object.defineProperty(host, "runtimeReplaced", { enumerable: false, value: (rt) => {
    if (!isPinned) { pinned = rt; isPinned = true; return false; }
    return rt !== pinned;
  } });
  Object.defineProperty(globalThis, "glassHost", { value: Object.freeze(host), writable: false, configurable: false, enumerable: false });
})();
