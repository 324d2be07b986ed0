/** "Task 2: Pay": a study task as people read it, told apart from another of the same title. */
export const taskName = (task: { readonly order: number; readonly title: string }): string =>
  `Task ${task.order}: ${task.title}`;
