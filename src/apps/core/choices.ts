/** Choices of NetBox 3.7's core app (core/choices.py; backend names and labels from core/data_backends.py). */
import { defineChoices } from '../../core/model/choices.js';

/** NetBox 3.7's data backends; only `local` is implemented here (data-source.model.ts says why). */
export const DataSourceType = defineChoices([
  ['local', 'Local'],
  ['git', 'Git'],
  ['amazon-s3', 'Amazon S3'],
]);

export const DataSourceStatus = defineChoices([
  ['new', 'New'],
  ['queued', 'Queued'],
  ['syncing', 'Syncing'],
  ['completed', 'Completed'],
  ['failed', 'Failed'],
]);

export const JobStatus = defineChoices([
  ['pending', 'Pending'],
  ['scheduled', 'Scheduled'],
  ['running', 'Running'],
  ['completed', 'Completed'],
  ['errored', 'Errored'],
  ['failed', 'Failed'],
]);
