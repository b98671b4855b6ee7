import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type ZlibOptions } from 'node:zlib';

// The proxy asks for `identity`; an upstream that compresses anyway has its answer decoded (the proxy reads
// answers to disturb them, and passes them on uncompressed), within the size limit of the decoded bytes.

type Decoder = (body: Buffer, options: ZlibOptions) => Promise<Buffer>;

const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** Why an encoded answer could not be read: an encoding the proxy does not know, or bytes that are not it. */
export class EncodingError extends Error {
  constructor(
    readonly encoding: string,
    message: string,
  ) {
    super(message);
  }
}

/** The answer is larger than the limit, as received or once decoded. */
export class TooLarge extends Error {}

/** The encodings the proxy decodes (`identity` aside). */
export const KNOWN_ENCODINGS = Object.keys(DECODERS);

/**
 * `body` with its content codings (`gzip`, `deflate`, `br`, in the order the upstream applied them)
 * undone; at most `maxBytes` of output.
 */
export async function decodeBody(contentEncoding: string, body: Buffer, maxBytes: number): Promise<Buffer> {
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let decoded = body;
  for (const coding of codings.reverse()) {
    const decoder = Object.hasOwn(DECODERS, coding) ? DECODERS[coding] : undefined;
    if (!decoder)
      throw new EncodingError(
        coding,
        `it is encoded as ${coding}, which the proxy did not ask for and does not decode (it decodes ${KNOWN_ENCODINGS.join(', ')})`,
      );
    try {
      decoded = await decoder(decoded, { maxOutputLength: maxBytes });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new TooLarge();
      throw new EncodingError(coding, `it is labelled ${coding} but is not (${(error as Error).message})`);
    }
  }
  return decoded;
}
