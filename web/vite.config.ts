// Builds the console into web/dist, served by the service at /console (src/transports/http/console.ts).
import { defineConfig } from "vite";

export default defineConfig({
  base: "/console/",
  // React's automatic JSX runtime through esbuild: a production build needs no React plugin (no fast refresh here).
  esbuild: { jsx: "automatic" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rollupOptions: {
      // zod marks a pure IIFE in a place Rollup cannot use; the note is harmless and would repeat on every install.
      onwarn: (warning, warn) => (warning.code === "INVALID_ANNOTATION" ? undefined : warn(warning)),
    },
  },
});
