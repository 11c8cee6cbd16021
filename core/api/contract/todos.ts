/** Todos by status for the workbench (inspection: reading them logs no access). */
import { z } from 'zod';
import { TODO_STATUSES } from '../../model/enums.js';
import type { TodoView } from '../../prospective/views.js';
import { method } from '../define.js';
import { scopeField } from './shared/fields.js';

export interface TodoListResult {
  counts: { open: number; done: number; dropped: number };
  rows: TodoView[];
}

export const todosContract = {
  'todos.list': method<TodoListResult>()({
    description: 'Todos by status (open by default), highest importance first, then oldest first.',
    input: z
      .object({ owner: scopeField, status: z.enum([...TODO_STATUSES, 'all']).optional().default('open') })
      .optional()
      .default({ status: 'open' }),
  }),
};
