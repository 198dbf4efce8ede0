/**
 * Stands in for google-auth-library in Cody's bundle. @google/genai imports it for Vertex AI sign-in,
 * which Cody never uses (its Gemini client always passes an API key, and `vertexai: false`), and it is
 * ~60% of the Gemini chunk's 1.5 MB that every Gemini turn would otherwise load (scripts/bundle.js).
 */
export class GoogleAuth {
  constructor() {
    throw new Error('Vertex AI sign-in is not part of Cody: set GEMINI_API_KEY.');
  }
}
