// Registers module hooks under which onnxruntime-node cannot be found, as on an install without the optional peer.
import { register } from "node:module";

register("./hide-onnxruntime-hooks.mjs", import.meta.url);
