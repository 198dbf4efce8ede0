/** The page's entry: signs in with a `#code=` from the address bar if there is one, then renders the app. */
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';
import './narrow.css';

const root = document.getElementById('app');
if (root) render(<App />, root);
