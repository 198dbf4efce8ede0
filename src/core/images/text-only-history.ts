/**
 * What a model that takes no images is sent in their place: each image (with its name tags) as
 * `[image: name]` text, in messages and in tool outputs (view_image's). Only the request changes: the
 * history and the rollout keep the images, so switching back to a model with vision sends them again.
 */
import type { ResponseItem, ToolSpec } from '../../protocol/index.js';
import { namedImageParts, withImagesNamed } from './image-parts.js';

/** The tool that shows the model an image: offered only to models that take images. */
export const VIEW_IMAGE_TOOL = 'view_image';

/** The items as sent to a model: unchanged when it takes images, else with every image named in text. */
export function itemsForModel(items: readonly ResponseItem[], acceptsImages: boolean): ResponseItem[] {
  if (acceptsImages) return [...items];
  return items.map((item) => {
    if (item.type === 'message') return withImagesNamed(item);
    if (item.type === 'function_call_output' && typeof item.output !== 'string')
      return { ...item, output: namedImageParts(item.output) };
    return item;
  });
}

/** The tools offered to a model: without view_image when it takes no images. */
export function toolsForModel(specs: readonly ToolSpec[], acceptsImages: boolean): ToolSpec[] {
  return acceptsImages ? [...specs] : specs.filter((spec) => spec.name !== VIEW_IMAGE_TOOL);
}
