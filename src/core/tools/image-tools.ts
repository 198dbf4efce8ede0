/** `view_image`: the model looks at an image file (read rules apply, as for read_file). */
import { z } from 'zod';
import { loadImage } from '../images/index.js';
import { imageParts } from '../images/index.js';
import { CodyError } from '../errors.js';
import { defineTool, failed, type ToolHandler } from './handler.js';

export const viewImageTool: ToolHandler = defineTool(
  'view_image',
  z.object({ path: z.string().min(1) }),
  (args) => ({
    access: (workspace) => {
      const path = workspace.resolve(args.path);
      return { kind: 'read', outside: workspace.contains(path) ? [] : [path] };
    },
    run: async ({ workspace }) => {
      try {
        const image = await loadImage({ path: workspace.resolve(args.path), name: args.path });
        const output = `Image ${args.path} (${image.mimeType}, ${image.bytes.length} bytes) attached.`;
        return {
          output,
          status: 'ok',
          content: [{ type: 'input_text', text: output }, ...imageParts(image)],
        };
      } catch (error) {
        if (error instanceof CodyError) return failed(error.message);
        throw error;
      }
    },
  }),
);
