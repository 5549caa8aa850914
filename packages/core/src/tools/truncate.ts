/** Cuts text for the model at `maxChars`, saying how much was left out. */
export function cutForModel(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const marker = `\n[harnessx: result truncated: showing the first ${maxChars} of ${content.length} characters]`;
  return content.slice(0, Math.max(0, maxChars)) + marker;
}
