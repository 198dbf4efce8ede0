import fs from 'node:fs';

/**
 * The file system proper-lockfile uses, except that the lock directory it creates is private (0700,
 * like everything else in CODY_HOME) instead of inheriting the umask (0755 under the usual 022, 0777
 * under 000). The lock holds nothing secret, but its name gives away which conversations are active.
 */
export const privateLockFs: object = {
  ...fs,
  mkdir(path: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
    fs.mkdir(path, { mode: 0o700 }, (error) => {
      if (error) {
        callback(error);
        return;
      }
      // mkdir's mode is filtered by the umask; chmod is not.
      fs.chmod(path, 0o700, () => callback(null));
    });
  },
};
