/** A real 1×1 PNG for the image tests (its signature and IHDR are what Cody checks). */
export const PNG_1X1_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
export const PNG_1X1 = Buffer.from(PNG_1X1_BASE64, 'base64');
