/**
 * An image file named by a person (or by view_image, after its policy) is read as Cody reads its own
 * files (issue 36.5): anywhere, but only a regular file, and never more than MAX_IMAGE_BYTES.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadImage } from '../../../../src/core/images/attach-images.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('loadImage on hostile files', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'cody-image-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads an image anywhere the person names, through a link too', async () => {
    await writeFile(join(directory, 'shot.png'), PNG);
    await symlink(join(directory, 'shot.png'), join(directory, 'link.png'));
    await expect(loadImage(join(directory, 'link.png'))).resolves.toMatchObject({ mimeType: 'image/png' });
  });

  it('refuses a FIFO at once', async () => {
    const path = join(directory, 'pipe.png');
    execFileSync('mkfifo', [path]);
    const started = Date.now();
    await expect(loadImage(path)).rejects.toThrow(`${path} is a FIFO, not a regular file.`);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('refuses /dev/zero through a link as a device, without reading it', async () => {
    const path = join(directory, 'zero.png');
    await symlink('/dev/zero', path);
    await expect(loadImage(path)).rejects.toThrow(`${path} is a character device, not a regular file.`);
  });

  it('refuses a huge file by its size, without reading it', async () => {
    const path = join(directory, 'huge.png');
    await writeFile(path, PNG);
    await truncate(path, 4 * 1024 * 1024 * 1024);
    await expect(loadImage({ path, name: 'huge.png' })).rejects.toThrow(
      'huge.png is too large to attach: 4096.0 MB (at most 20 MB).',
    );
  });
});
