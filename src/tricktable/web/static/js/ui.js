// The page's one view library: Preact with htm (vendored under /static/vendor/, no build step).
import { h, render } from "preact";
import htm from "htm";

export { h, render };
export const html = htm.bind(h);
export { useState, useEffect, useRef, useReducer, useCallback, useMemo } from "preact/hooks";
