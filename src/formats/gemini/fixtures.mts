// Fixtures and helpers shared by the gemini test files.
import { expect } from 'vitest'
import type { Conversation, Part } from '../../engine/model.ts'
import { sniff } from '../sniff.ts'
import { importer } from './index.ts'
import { roundTrip } from '../testing-corpus.mts'

export function load(text: string) {
  const r = importer.parse(sniff(text))
  if (!r.ok) throw new Error(`parse failed: ${JSON.stringify(r.error)}`)
  return { conv: r.conversation, warnings: r.warnings }
}

/** Round trip keeping the digest, system and tools. */
export function roundTripAll(conv: Conversation): void {
  const again = roundTrip(importer, conv)
  expect(again.system).toEqual(conv.system)
  expect(again.tools).toEqual(conv.tools)
}

export function allParts(conv: Conversation): Part[] {
  return conv.messages.flatMap((m) => m.parts)
}

export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='

export const REQUEST = {
  systemInstruction: { role: 'user', parts: [{ text: 'Be brief.' }] },
  contents: [
    {
      role: 'user',
      parts: [
        { text: 'Weather in Oslo and Bergen?' },
        { inlineData: { mimeType: 'image/png', data: PNG } },
      ],
    },
    {
      role: 'model',
      parts: [
        { text: 'Two cities, two calls.', thought: true, thoughtSignature: 'CiQBsig1' },
        { functionCall: { name: 'weather', args: { city: 'Oslo' } }, thoughtSignature: 'CiQBsig2' },
        { functionCall: { name: 'weather', args: { city: 'Bergen' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'weather', response: { output: '4C' } } },
        { functionResponse: { name: 'weather', response: { temp: 7, unit: 'C' } } },
      ],
    },
    {
      role: 'model',
      parts: [
        { functionCall: { id: 'a', name: 'lookup', args: { q: 'x' } } },
        { functionCall: { id: 'b', name: 'lookup', args: { q: 'y' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { id: 'b', name: 'lookup', response: { error: 'not found' } } },
        { functionResponse: { id: 'a', name: 'lookup', response: { result: 'found', extra: 1 } } },
      ],
    },
    {
      role: 'model',
      parts: [
        { executableCode: { language: 'PYTHON', code: 'print(1+1)' } },
        { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2\n' } },
        { text: 'It is 2.' },
        { thoughtSignature: 'CiQBlone' },
      ],
    },
    {
      role: 'user',
      parts: [
        { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/doc.pdf' } },
        { text: 'Summarise.' },
      ],
    },
  ],
  tools: [
    {
      functionDeclarations: [
        {
          name: 'weather',
          description: 'Weather now',
          parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } },
        },
        { name: 'lookup', parametersJsonSchema: { type: 'object' } },
      ],
    },
    { googleSearch: {} },
  ],
  generationConfig: { thinkingConfig: { includeThoughts: true } },
}

export const RESPONSE = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'final', args: { a: 1 } }, thoughtSignature: 'Zm9v' }],
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: {
    promptTokenCount: 107,
    candidatesTokenCount: 23,
    thoughtsTokenCount: 50,
    cachedContentTokenCount: 64,
    totalTokenCount: 180,
  },
  modelVersion: 'gemini-3-pro-preview',
  responseId: 'resp-1',
}

export const SSE = [
  'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Thinking ","thought":true}]}}]}',
  '',
  'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hard.","thought":true}]}}]}',
  '',
  'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hello "}]}}]}',
  '',
  'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"world","thoughtSignature":"U0lH"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":3},"responseId":"r-s"}',
  '',
].join('\n')
