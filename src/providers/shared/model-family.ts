/**
 * The usual model family: the model id without date stamps and preview/latest tags (a definition's
 * `modelFamily` unless its API says otherwise, as Anthropic's does).
 */
export function familyOfModelId(model: string): string {
  return model
    .toLowerCase()
    .replace(/^models\//, '')
    .replace(/-(\d{4}-\d{2}-\d{2}|\d{8}|\d{2}-\d{2})$/, '')
    .replace(/-(preview|latest|exp)(-.*)?$/, '');
}
