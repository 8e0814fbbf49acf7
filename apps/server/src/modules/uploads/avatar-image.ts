import { AVATAR_WRONG_TYPE } from '@portal/contracts/messages';
import type { Metadata } from 'sharp';
import { invalidInput } from '../../http/app-error.js';

/** Limits of an avatar: bytes on the wire, pixels before anything is decoded, the stored size. */
export const AVATAR_LIMITS = {
  maxBytes: 5 * 1024 * 1024,
  /** 40 megapixels: a phone photo passes, a decompression bomb does not. */
  maxPixels: 40_000_000,
  /** Stored avatars are this square (the portal shows 128 px; twice that and more for HiDPI). */
  sidePx: 512,
} as const;

export const AVATAR_MESSAGES = {
  wrongType: AVATAR_WRONG_TYPE,
  tooLarge: 'Файл слишком большой: максимум 5 МБ',
  tooManyPixels: 'Изображение слишком большое: максимум 40 мегапикселей',
  unreadable: 'Не удалось прочитать изображение',
  noFile: 'Выберите файл',
} as const;

type ImageType = 'png' | 'jpeg';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type the bytes themselves declare; the file's name and the client's type are ignored. */
function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'jpeg';
  }
  return null;
}

export interface ProcessedImage {
  body: Buffer;
  type: ImageType;
  contentType: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
}

/**
 * Checks an upload and re-encodes it: the header is read first (no pixel is decoded for a
 * 50,000 × 50,000 claim), then the image is decoded under a pixel cap, turned upright, cropped to
 * a square and written anew, which drops metadata (EXIF, GPS) and anything appended to the file.
 */
export async function processAvatar(bytes: Buffer): Promise<ProcessedImage> {
  const type = sniffImageType(bytes);
  if (!type) throw invalidInput(AVATAR_MESSAGES.wrongType, { file: [AVATAR_MESSAGES.wrongType] });
  // Loaded at the first upload, not at start: sharp's native library is a large part of a start.
  const { default: sharp } = await import('sharp');

  const options = { limitInputPixels: AVATAR_LIMITS.maxPixels, failOn: 'error' } as const;
  let metadata: Metadata;
  try {
    // Reads the header only; the pixel cap applies when decoding, below.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw invalidInput(AVATAR_MESSAGES.unreadable, { file: [AVATAR_MESSAGES.unreadable] });
  }
  // The decoder must agree with the signature: a JPEG header on PNG data is not accepted.
  if (metadata.format !== type) {
    throw invalidInput(AVATAR_MESSAGES.wrongType, { file: [AVATAR_MESSAGES.wrongType] });
  }
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  if (pixels > AVATAR_LIMITS.maxPixels) {
    throw invalidInput(AVATAR_MESSAGES.tooManyPixels, { file: [AVATAR_MESSAGES.tooManyPixels] });
  }

  try {
    const pipeline = sharp(bytes, options)
      .rotate()
      .resize(AVATAR_LIMITS.sidePx, AVATAR_LIMITS.sidePx, { fit: 'cover', position: 'attention' });
    const body =
      type === 'png'
        ? await pipeline.png({ compressionLevel: 9 }).toBuffer()
        : await pipeline
            .flatten({ background: '#ffffff' })
            .jpeg({ quality: 85, mozjpeg: true })
            .toBuffer();
    return type === 'png'
      ? { body, type, contentType: 'image/png', extension: 'png' }
      : { body, type, contentType: 'image/jpeg', extension: 'jpg' };
  } catch {
    throw invalidInput(AVATAR_MESSAGES.unreadable, { file: [AVATAR_MESSAGES.unreadable] });
  }
}
