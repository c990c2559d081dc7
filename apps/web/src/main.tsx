import { mountApp } from './app';
import { rootElement } from './ui/rootElement';

void mountApp(rootElement());
