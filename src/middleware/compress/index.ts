// rove/compress: gzip, deflate and brotli for compressible responses.
export { brotliSupport, type CompressOptions, compress, type Encoding, platformCompresses } from './compress.ts';
