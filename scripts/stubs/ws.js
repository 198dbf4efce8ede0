/**
 * Stands in for the `ws` package in Cody's bundle: @google/genai imports it for its Live API (WebSockets),
 * which Cody never opens (scripts/bundle.js).
 */
export class WebSocket {
  constructor() {
    throw new Error('WebSocket sessions are not part of Cody.');
  }
}
export default WebSocket;
