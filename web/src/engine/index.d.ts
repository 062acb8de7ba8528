// Types of the engine facade. All matrices are row-major Float32Arrays; inputs may also be plain
// arrays of numbers. Every function throws an Error naming the bad argument on bad input.

export type Values = Float32Array | ArrayLike<number>;
export type Flags = Uint8Array | ArrayLike<boolean | number>;

export interface AttentionInput {
  q: Values; // (nq, dk)
  k: Values; // (nk, dk)
  v: Values; // (nk, dv)
  nq: number;
  nk: number;
  dk: number;
  dv: number;
  scale?: boolean; // divide scores by sqrt(dk); default true
  temperature?: number; // softmax temperature > 0; default 1
  causal?: boolean; // query i sees keys 0..i; needs nq === nk
  keyPadding?: Flags | null; // nk flags, true = padded key, never attended
  trace?: boolean; // default true; false returns only weights and output (less to copy)
}

export interface AttentionTrace {
  scores: Float32Array; // (nq, nk) Q K^T
  scaled: Float32Array; // (nq, nk) scores / sqrt(dk), or scores when scale is false
  masked: Float32Array; // (nq, nk) scaled with -Infinity where masked
  weights: Float32Array; // (nq, nk) softmax(masked / temperature); masked entries exactly 0
  output: Float32Array; // (nq, dv) weights V
}

export interface ScoreInput {
  kind: 'additive' | 'dot' | 'general';
  s: Values; // (ds) decoder state
  h: Values; // (n, dh) encoder states
  n: number;
  ds: number;
  dh: number;
  ws?: Values; // additive: (da, ds)
  wh?: Values; // additive: (da, dh)
  v?: Values; // additive: (da)
  da?: number; // additive
  w?: Values; // general: (ds, dh)
}

export interface ScoreResult {
  scores: Float32Array; // (n) e_j
  weights: Float32Array; // (n) softmax(e), sums to 1
  context: Float32Array; // (dh) sum_j weights_j h_j
}

export interface MultiHeadInput {
  xq: Values; // (nq, dModel)
  xkv: Values; // (nk, dModel); the same as xq for self-attention
  nq: number;
  nk: number;
  dModel: number;
  heads: number; // divides dModel
  wq: Values; // (dModel, dModel), Q = xq wq + bq
  wk: Values;
  wv: Values;
  wo: Values; // output = concat(heads) wo + bo
  bq?: Values | null; // (dModel)
  bk?: Values | null;
  bv?: Values | null;
  bo?: Values | null;
  causal?: boolean;
  keyPadding?: Flags | null;
}

export interface MultiHeadResult {
  heads: { weights: Float32Array; output: Float32Array }[]; // (nq, nk) and (nq, dModel / heads)
  output: Float32Array; // (nq, dModel)
}

export interface ScalingSide {
  samples: Float32Array; // q.k, or q.k / sqrt(dk)
  mean: number;
  variance: number;
  maxWeight: number; // mean largest softmax weight over `keys` keys
  entropy: number; // mean softmax entropy, nats
  gradientNorm: number; // mean Frobenius norm of the softmax Jacobian
}

export interface ScalingResult {
  dk: number;
  unscaled: ScalingSide;
  scaled: ScalingSide;
}

export interface BottleneckResult {
  counts: number[]; // N, the facts stored, as asked
  fixedVector: Float32Array; // (counts) share of facts read back exactly from one vector of width d
  attention: Float32Array; // (counts) share read back exactly by attention over all N keys
}

export interface EmbeddingsInfo {
  words: number; // vocabulary size
  dim: number; // d, the length of every vector
}

export interface EmbeddedTokens {
  vectors: Float32Array; // (n, d), row i the vector of tokens[i]
  known: Uint8Array; // (n), 1 = a vocabulary word, 0 = unknown (a fallback vector)
  d: number;
}

export interface TrainingOptions {
  model?: 'fixed' | 'attention'; // one fixed vector, or attention over the encoder states; default attention
  scoring?: 'additive' | 'dot' | 'scaled_dot'; // attention model only; default 'scaled_dot'
  dModel?: number; // 2 to 256; default 32
  dK?: number; // 0 (= dModel) or 1 to 1024; attention model only; default 0
  vocab?: number; // symbols 1..vocab, 2 to 64; default 8
  minLength?: number; // 1 to 32; default 2
  maxLength?: number; // minLength to 32; default 12
  batch?: number; // sequences per step, 1 to 512; default 32
  learningRate?: number; // Adam's, > 0 and <= 1; default 0.003
  clip?: number; // global gradient norm limit, 0 (off) to 1000; default 1
  seed?: number; // 0 to 4294967295; default 1
}

export interface TrainingEvaluation {
  lengths: number[]; // as asked
  sequenceAccuracy: Float32Array; // (lengths) share of held-out sequences reversed whole
  symbolAccuracy: Float32Array; // (lengths) share of output symbols that are right
}

export interface TrainingAttentionMap {
  length: number; // L
  input: number[]; // (L) a fixed sample input of that length, symbols 1..vocab
  target: number[]; // (L) the input reversed
  output: number[]; // (L) the model's most likely symbol at each output step
  weights: Float32Array; // (L, L) row t: output step t's weights over input positions 0..L-1
}

export interface Training {
  readonly options: Readonly<Required<TrainingOptions>>; // with defaults; dK resolved
  step(n?: number): Float32Array; // n steps (1 to 100000, default 1) -> their losses
  evaluate(lengths: ArrayLike<number>, samples?: number): TrainingEvaluation; // samples default 200
  attentionMap(length: number): TrainingAttentionMap; // throws for the fixed model
  readonly steps: number; // steps taken so far
  dispose(): void; // frees the core's memory; any later call throws
}

export type HeadKind = 'previous-token' | 'first-token' | 'self' | 'induction' | 'mixed';

export interface HeadScores {
  previousToken: number; // mean weight on the previous token, held-out text
  firstToken: number; // mean weight on the first token
  self: number; // mean weight on itself
  induction: number; // mean weight on the token after the earlier copy, repeated random words
}

export interface HeadInfo {
  layer: number; // 0-based
  head: number; // 0-based, within its layer
  kind: HeadKind | string; // named from the scores (docs/language-model.md)
  scores: HeadScores;
}

export interface LanguageModelInfo {
  vocab: number; // the word vectors' words + 1 unknown-word id
  dEmbed: number;
  dModel: number;
  layers: number;
  headsPerLayer: number;
  dMlp: number;
  context: number; // the most tokens it reads
  parameters: number; // trained values
  corpus: {
    name: string;
    splits: Record<
      'train' | 'validation' | 'test',
      { samples: number; tokens: number; outOfVocabularyPercent: number }
    >;
  } | null; // null when the report holds no baselines
  validationPerplexity: number; // held out, as measured after training
  testPerplexity: number;
  baselines: {
    unigram: { validation: number; test: number }; // perplexities on the same split
    kneserNeyBigram: { validation: number; test: number };
  } | null; // null when the report holds none
  training: unknown; // the settings it was trained with, or null when the report holds none
  heads: readonly HeadInfo[]; // layer-major
}

export interface LanguageModelRun {
  tokens: string[]; // the last `context` tokens of the text
  known: boolean[]; // per token: the vocabulary holds it
  dropped: number; // tokens before them that the model did not read
  heads: (HeadInfo & { weights: Float32Array })[]; // weights (n, n), row i over tokens 0..i
  next: { word: string | null; probability: number }[]; // most probable first; null = unknown word
}

export interface LanguageModel {
  readonly info: Readonly<LanguageModelInfo>;
  run(text: string, options?: { top?: number }): LanguageModelRun; // throws on text with no token
}

export interface LanguageModelTrainingOptions {
  words?: number; // keep the first `words` words of the vectors, the rest one unknown word
  dModel?: number;
  layers?: number;
  heads?: number; // per layer; must divide dModel
  dMlp?: number;
  context?: number; // tokens per training row (8 to 64)
  positionScale?: number; // the learned positions start unit normal times this
  seed?: number; // of the weights and the batches
  steps?: number; // the schedule's length: warm-up, then a cosine to finalLrFraction
  batch?: number;
  learningRate?: number;
  warmup?: number;
  finalLrFraction?: number;
  clip?: number; // global gradient norm, 0 = off
  repeatFraction?: number; // share of each batch that is random words repeated
  minRun?: number; // their run lengths, 2 <= minRun <= maxRun <= context
  maxRun?: number;
  measureSequences?: number; // held-out windows and repeated runs measure() reads
  probeLength?: number; // words of the held-out phrase probe() says twice (1 to 32, at most context / 2)
}

export interface MeasuredHead extends HeadScores {
  layer: number;
  head: number;
  kind: HeadKind;
}

export interface LanguageModelTraining {
  readonly options: Readonly<Required<LanguageModelTrainingOptions>>; // with defaults
  readonly info: { parameters: number; trainTokens: number; copyLength: number };
  step(n?: number): Float32Array; // n steps (1 to 1000, default 1) -> their losses
  measure(): MeasuredHead[]; // every head's scores now, layer-major
  probe(): { words: (string | null)[]; weights: Float32Array }; // a held-out phrase twice, every head
  readonly steps: number;
  dispose(): void; // frees the core's memory; any later call throws
}

export interface TranslatorTimingOptions {
  seed?: number; // both models' initial weights
  warmup?: number | null; // null: each model's committed warm-up (200 and 1,000 steps)
  dropout?: number | null; // null: the committed 0.1; else in [0, 1)
}

export type TimedModel = 'attention' | 'transformer';

export interface TranslatorTiming {
  readonly options: Readonly<Required<TranslatorTimingOptions>>; // with defaults
  readonly info: Readonly<{
    pairs: number; // the batch: every pair of the file
    englishTokens: number;
    germanTokens: number;
    targetWords: number; // the German vocabulary's size, from the file
    attention: Readonly<{ parameters: number }>;
    transformer: Readonly<{
      parameters: number;
      dModel: number;
      heads: number;
      encoderLayers: number;
      decoderLayers: number;
      dMlp: number;
    }>;
  }>;
  step(model: TimedModel): number; // one step on the batch -> its loss before the update
  steps(model: TimedModel): number; // the steps that model has taken
  dispose(): void; // frees the core's memory; any later call throws
}

export type TranslatorModel = 'attention' | 'fixed-vector' | 'transformer';

export interface TranslatorBleu {
  overall: { bleu: number; sentences: number }; // corpus BLEU-4 on the test split
  buckets: readonly { from: number; to: number | null; sentences: number; bleu: number }[]; // by English length; to null = and longer
}

export interface EverydayScores {
  sentences: number; // the everyday set's English sentences, translated as the page does
  chrf: number; // corpus chrF (character 6-grams, beta 2) of the translations shown, 0 to 100
  unknownShare: number; // share of the German words written that are '<unk>'
  contentWordRecall: number; // share of the references' content words the translations write
}

export interface AlignmentScore {
  checkable: number; // German words written with exactly one English word the dictionary pairs them with
  aligned: number; // of them, those whose weights are largest on that English word
  score: number; // aligned / checkable
  diagonalScore: number; // the same for guessing the diagonal, the baseline
}

export interface HeadAlignment {
  layer: number; // the decoder layer, from 0
  head: number; // the head of that layer's cross-attention, from 0
  checkable: number; // as AlignmentScore's, for this head's weights alone
  aligned: number;
  score: number;
}

export interface TransformerSizes {
  dModel: number; // the residual stream's width
  heads: number; // per attention layer
  encoderLayers: number;
  decoderLayers: number;
  dMlp: number; // the feed-forward network's hidden width
}

export interface TranslatorInfo {
  model: TranslatorModel;
  sourceWords: number; // the English word vectors' words (and one unknown-word id)
  sourceWidth: number;
  targetWords: number; // the German vocabulary, <pad>, <s>, </s> and <unk> included
  targetPieces: boolean; // the German vocabulary is subword pieces (any German word can be written), not whole words
  targetWidth: number; // the German embeddings' width (the Transformer's: d_model)
  encoderState: number | null; // per direction; null for the Transformer
  decoderState: number | null; // null for the Transformer
  attentionWidth: number | null; // null for the fixed-vector model and the Transformer
  parameters: number; // trained values
  maxSourceTokens: number; // translate() reads the first 64 tokens
  corpus: { trainPairs: number; validationPairs: number; testPairs: number };
  training: unknown; // the settings it was trained with
  validationPerplexity: number;
  testPerplexity: number;
  bleu: TranslatorBleu;
  alignment: AlignmentScore | null; // null for the fixed-vector model
  everyday: EverydayScores | null; // on everyday English (docs/translation.md); null when the report holds none
  measuredBeam: number; // the beam the measured translations were searched with: pass it to translate() to read what was scored (1: greedy)
  transformer: Readonly<TransformerSizes> | null; // null for the recurrent models
  heads: readonly HeadAlignment[] | null; // the Transformer's every cross-attention head, layer-major; null for the recurrent models
  encoderStats: EncoderStats | null; // what the Transformer's encoder does with the test sentences (its residual stream, its heads); null for the recurrent models and a report without it
}

export interface EncoderStats {
  sentences: number;
  tokens: number;
  stages: readonly { streamRms: number; inputCosine: number }[]; // (2 layers + 1) as EncoderTrace's stages, each the mean over every token
  sublayers: readonly {
    readRms: number;
    writeRms: number;
    streamSpread: number;
    readSpread: number;
  }[]; // (2 layers) the means over every token of the sizes read and written; the mean over sentences of the coefficient of variation across their tokens of the stream entering the sublayer and of what it reads
  heads: readonly { layer: number; head: number; previous: number; self: number; next: number }[]; // every self-attention head, layer-major, from 0: the shares of tokens whose largest weight falls on the token before them, on themselves, on the token after them
}

export interface TranslationPieces {
  text: string[]; // (m) what the model wrote, one id at a time: whole words for a word vocabulary, subword pieces (a word's first one starting with U+2581) otherwise; '<unk>' for the unknown id
  firstPiece: number[]; // (target.length + 1) word w is pieces firstPiece[w] .. firstPiece[w + 1] - 1; the last entry is m
  weights: Float32Array; // (m, source.length) each step's weights over the English words; empty for fixed-vector
  scores: Float32Array; // (m, source.length) e_tj before the softmax (softmax of row t = weights row t); empty for fixed-vector
}

export interface Translation {
  source: string[]; // the first maxSourceTokens English tokens of the text
  known: boolean[]; // per token: the word vectors hold it
  dropped: number; // tokens after them that were not read
  target: string[]; // the German words written (greedily, or by the beam asked for), without </s>; '<unk>' for a word the model wrote as the unknown id
  copied: number[]; // per German word: the English token copied in place of an '<unk>' (the one weighted most), or -1; all -1 for fixed-vector
  output: string[]; // the German words to read: target with each copied '<unk>' replaced by its English token (the core's readable_translation)
  weights: Float32Array; // (target.length, source.length), row w over the English words, the mean of word w's pieces' rows; empty for fixed-vector
  end: Float32Array; // (source.length) the </s> step's weights; empty for fixed-vector
  pieces: TranslationPieces; // the same translation one decision (one id) at a time
  logProbability: number; // of the pieces and </s>, natural log
  crossAttention?: CrossAttention; // the Transformer's only
  encoder?: EncoderTrace; // the Transformer's only
}

export interface EncoderTrace {
  layers: number;
  heads: number;
  weights: Float32Array; // (layers, heads, source.length, source.length): layer l's head h's self-attention at (l heads + h) n n, row i token i's query
  streamRms: Float32Array; // (2 layers + 1, source.length) per stage of the residual stream (the input, then after each attention and feed-forward sublayer in turn) and token: its root mean square
  inputCosine: Float32Array; // (2 layers + 1, source.length) the stream's cosine with the token's input (1 at the input)
  readRms: Float32Array; // (2 layers, source.length) per sublayer and token: the root mean square of what the sublayer reads (its layer norm's output)
  writeRms: Float32Array; // (2 layers, source.length) of what it adds to the stream
}

export interface CrossAttention {
  layers: number;
  heads: number;
  weights: Float32Array; // (layers, heads, target.length, source.length): map (l, h) at (l heads + h) target.length source.length, word rows as Translation.weights
  end: Float32Array; // (layers, heads, source.length) each map's </s> row
  pieces: Float32Array; // (layers, heads, m, source.length) each map's rows per piece written
}

export interface Translator {
  readonly info: Readonly<TranslatorInfo>;
  translate(text: string, options?: { beam?: number }): Translation; // beam: 1 (greedy, the default) to 16; throws on text with no token
}

export interface Engine {
  softmax(x: Values, rows: number, cols: number, options?: { temperature?: number }): Float32Array;
  attention(input: AttentionInput & { trace?: true }): AttentionTrace;
  attention(input: AttentionInput & { trace: false }): Pick<AttentionTrace, 'weights' | 'output'>;
  score(input: ScoreInput): ScoreResult;
  multiHeadAttention(input: MultiHeadInput): MultiHeadResult;
  positionalEncoding(n: number, d: number): Float32Array; // (n, d)
  glorotUniform(rows: number, cols: number, seed: number): Float32Array;
  unitNormal(rows: number, cols: number, seed: number): Float32Array;
  scalingExperiment(options: {
    dk: number;
    samples?: number;
    keys?: number;
    trials?: number;
    seed?: number;
  }): ScalingResult;
  bottleneckExperiment(options: {
    counts: ArrayLike<number>; // N per run, increasing, 1 to 4096
    width: number; // d, 1 to 1024
    codebook?: number; // M, 2 to 1024; default 16
    trials?: number; // default 4
    seed?: number;
  }): BottleneckResult;
  loadEmbeddings(bytes: Uint8Array | ArrayBuffer): EmbeddingsInfo; // the word-vector asset
  embed(tokens: string[]): EmbeddedTokens; // throws until loadEmbeddings has succeeded
  createTraining(options?: TrainingOptions): Training;
  loadLanguageModel(weights: Uint8Array, report: unknown): LanguageModel; // needs loadEmbeddings
  createLanguageModelTraining( // needs loadEmbeddings; train and heldOut are corpus files
    train: Uint8Array | ArrayBuffer,
    heldOut: Uint8Array | ArrayBuffer,
    options?: LanguageModelTrainingOptions,
  ): LanguageModelTraining;
  createTranslatorTiming( // needs loadEmbeddings; pairs is a file of sentence pairs
    pairs: Uint8Array | ArrayBuffer,
    options?: TranslatorTimingOptions,
  ): TranslatorTiming;
  readonly languageModel: LanguageModel | null; // the last one loaded
  readonly translators: { attention: Translator | null; fixedVector: Translator | null } | null; // the last loaded
  readonly transformer: Translator | null; // the last Transformer loaded
  // needs loadEmbeddings; null for a model the file does not hold
  loadTranslators(
    weights: Uint8Array | ArrayBuffer,
    report: unknown,
  ): { attention: Translator | null; fixedVector: Translator | null };
  loadTransformer(weights: Uint8Array | ArrayBuffer, report: unknown): Translator; // needs loadEmbeddings
}

export function loadEngine(): Promise<Engine>;
export function loadLanguageModel(options?: { engine?: Engine }): Promise<LanguageModel>;
export function loadTranslator(options?: {
  model?: TranslatorModel; // default 'attention'; 'transformer' loads lesson 2's file
  engine?: Engine;
}): Promise<Translator>;
