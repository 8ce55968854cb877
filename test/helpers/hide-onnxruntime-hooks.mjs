// Resolve hook: onnxruntime-node is not installed (see hide-onnxruntime.mjs).
export async function resolve(specifier, context, next) {
  if (specifier !== "onnxruntime-node") return next(specifier, context);
  const err = new Error("Cannot find package 'onnxruntime-node' imported from the service");
  err.code = "ERR_MODULE_NOT_FOUND";
  throw err;
}
