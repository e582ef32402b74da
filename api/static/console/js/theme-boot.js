// The theme, applied before the page is first painted: a classic script in each page's <head>,
// ahead of the stylesheet, so a dark room never sees a white frame (a module runs only after
// the page is parsed). The choice is 'auto', 'light' or 'dark', kept on this device by the
// switch (js/theme.js) under localStorage 'tablebank.theme'; 'auto' (or nothing kept) follows
// the device's prefers-color-scheme, also when it turns while the page is open. The theme in
// force is <html data-theme="light|dark">, which the stylesheet's custom properties follow;
// the color-scheme meta (form controls, scroll bars) and the theme-color metas (the phone's
// status bar) follow it too. A change is told to the page as a 'tablebank-theme' event.
(() => {
  const KEY = 'tablebank.theme';
  const CHOICES = ['auto', 'light', 'dark'];
  const root = document.documentElement;
  const darkScheme = window.matchMedia('(prefers-color-scheme: dark)');
  let chosenHere = null; // the choice of this page, where the device's storage refuses it

  /** The theme chosen (auto, light or dark): this page's, else this device's, else auto. */
  function choice() {
    if (chosenHere) return chosenHere;
    try {
      const kept = localStorage.getItem(KEY);
      return CHOICES.includes(kept) ? kept : 'auto';
    } catch {
      return 'auto'; // storage refused (a private window's settings): the device's scheme
    }
  }

  /** Puts the chosen theme in force on the page and its metas; an event when it changed. */
  function apply() {
    const chosen = choice();
    const theme = chosen === 'auto' ? (darkScheme.matches ? 'dark' : 'light') : chosen;
    const changed = root.dataset.theme !== theme;
    root.dataset.theme = theme;
    root.dataset.themeChoice = chosen;
    const scheme = /** @type {HTMLMetaElement|null} */ (document.querySelector('meta[name="color-scheme"]'));
    if (scheme) scheme.content = theme;
    // Each theme-color meta is written for one scheme (its media); a choice on this device
    // makes its theme's meta the one in force, whatever the device's scheme.
    for (const meta of document.querySelectorAll('meta[name="theme-color"]')) {
      if (!meta.hasAttribute('data-media')) meta.setAttribute('data-media', meta.getAttribute('media') || 'all');
      const written = meta.getAttribute('data-media');
      meta.setAttribute('media', chosen === 'auto' ? written : (written.includes(theme) ? 'all' : 'not all'));
    }
    if (changed) document.dispatchEvent(new CustomEvent('tablebank-theme', {detail: {theme, choice: chosen}}));
  }

  /** Keeps `value` (one of CHOICES) on this device and applies it. */
  function choose(value) {
    if (!CHOICES.includes(value)) return;
    try {
      localStorage.setItem(KEY, value);
      chosenHere = null;
    } catch {
      chosenHere = value;
    }
    apply();
  }

  apply();
  darkScheme.addEventListener('change', apply);
  // Chosen in another tab of this device: this one follows.
  window.addEventListener('storage', (event) => { if (event.key === KEY || event.key === null) apply(); });
  window.tablebankTheme = {CHOICES, choice, choose};
})();
