// What the console's pages put on the window beside its modules: uPlot (js/vendor, a classic
// script), the pocket bank's Python class (the Web Worker), the theme's early script.
interface Window {
  uPlot: any;
  PocketBank: any;
  tablebankTheme: any;
}
