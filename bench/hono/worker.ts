import { app } from './app.ts';
import { addAppLayer } from './app-layer.ts';

addAppLayer(app);

export default app;
