/** Two questions; `a` is right. 50 % passes. */
export const SHORT_QUIZ = {
  passingScore: 50,
  questions: [
    {
      text: 'Which key moves focus forward?',
      options: [
        { id: 'a', text: 'Tab' },
        { id: 'b', text: 'Home' },
      ],
      correctOptionId: 'a',
      points: 1,
    },
    {
      text: 'What does alt text describe?',
      options: [
        { id: 'a', text: 'An image' },
        { id: 'b', text: 'A font' },
      ],
      correctOptionId: 'a',
      points: 1,
    },
  ],
};
