// Scaled dot-product attention in plain JavaScript: the baseline that `npm run bench` compares the
// WebAssembly engine with. Straightforward loops over row-major Float32Arrays, written the way a
// careful JavaScript programmer would (rows read contiguously, no allocation inside the loops),
// without SIMD, blocking or other tricks. Unmasked, temperature 1.

/**
 * softmax(Q K^T / sqrt(d_k)) V with every intermediate, in the engine's trace format.
 * q: (nq, dk), k: (nk, dk), v: (nk, dv), all row-major.
 *
 * @param {{ q: Float32Array, k: Float32Array, v: Float32Array,
 *   nq: number, nk: number, dk: number, dv: number }} input
 * @returns {{ scores: Float32Array, scaled: Float32Array, masked: Float32Array,
 *   weights: Float32Array, output: Float32Array }} scores, scaled, masked, weights: (nq, nk);
 *   output: (nq, dv). masked equals scaled (there is no mask).
 */
export function plainAttention({ q, k, v, nq, nk, dk, dv }) {
  if (q.length !== nq * dk || k.length !== nk * dk || v.length !== nk * dv) {
    throw new Error(
      `plainAttention: q has ${q.length} entries (want ${nq}x${dk}), k ${k.length} ` +
        `(want ${nk}x${dk}), v ${v.length} (want ${nk}x${dv})`,
    );
  }
  const scores = new Float32Array(nq * nk); // (nq, nk)
  const scaled = new Float32Array(nq * nk); // (nq, nk)
  const weights = new Float32Array(nq * nk); // (nq, nk)
  const output = new Float32Array(nq * dv); // (nq, dv), starts at 0
  const scale = 1 / Math.sqrt(dk);

  for (let i = 0; i < nq; i++) {
    const qRow = i * dk;
    const sRow = i * nk;
    // 1. scores[i, j] = q[i, :] . k[j, :], scaled[i, j] = scores[i, j] / sqrt(dk).
    for (let j = 0; j < nk; j++) {
      const kRow = j * dk;
      let dot = 0;
      for (let p = 0; p < dk; p++) dot += q[qRow + p] * k[kRow + p];
      scores[sRow + j] = dot;
      scaled[sRow + j] = dot * scale;
    }
    // 2. Stable softmax over the row: subtract the maximum before exp.
    let rowMax = -Infinity;
    for (let j = 0; j < nk; j++) if (scaled[sRow + j] > rowMax) rowMax = scaled[sRow + j];
    let sum = 0;
    for (let j = 0; j < nk; j++) {
      const e = Math.exp(scaled[sRow + j] - rowMax);
      weights[sRow + j] = e;
      sum += e;
    }
    const inverseSum = 1 / sum;
    for (let j = 0; j < nk; j++) weights[sRow + j] *= inverseSum;
    // 3. output[i, :] = sum_j weights[i, j] v[j, :], accumulated row by row of v.
    const oRow = i * dv;
    for (let j = 0; j < nk; j++) {
      const w = weights[sRow + j];
      const vRow = j * dv;
      for (let c = 0; c < dv; c++) output[oRow + c] += w * v[vRow + c];
    }
  }
  return { scores, scaled, masked: scaled.slice(), weights, output };
}
