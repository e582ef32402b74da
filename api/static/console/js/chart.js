// The console's charts: uPlot, vendored under /console/static/vendor/uplot/ with its licence,
// loaded once when a screen first draws one (the replay's net worth, the statistics' deeds).

import {h} from './dom.js';

let uplotLoading = null;

/** uPlot, loaded once, from this server (a classic script: it defines window.uPlot). */
export function loadUplot() {
  if (window.uPlot) return Promise.resolve(window.uPlot);
  if (!uplotLoading) {
    uplotLoading = new Promise((resolve, reject) => {
      document.head.append(h('link', {rel: 'stylesheet', href: new URL('../vendor/uplot/uPlot.min.css', import.meta.url).href}));
      const script = h('script', {src: new URL('../vendor/uplot/uPlot.iife.min.js', import.meta.url).href});
      script.addEventListener('load', () => resolve(window.uPlot));
      script.addEventListener('error', reject);
      document.head.append(script);
    });
  }
  return uplotLoading;
}

