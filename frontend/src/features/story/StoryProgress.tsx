interface StoryProgressProps {
  chapterNumber: number;
  total: number;
}

export function StoryProgress({ chapterNumber, total }: StoryProgressProps) {
  return (
    <div className="flex items-center gap-3">
      <div
        role="progressbar"
        aria-label="Story progress"
        aria-valuemin={1}
        aria-valuemax={total}
        aria-valuenow={chapterNumber}
        aria-valuetext={`Chapter ${chapterNumber} of ${total}`}
        className="h-2 flex-1 overflow-hidden rounded-full bg-white/10"
      >
        <div
          className="h-full rounded-full bg-linear-to-r from-fuchsia-500 via-amber-400 to-cyan-400 transition-[width] duration-500 motion-reduce:transition-none"
          style={{ width: `${(chapterNumber / total) * 100}%` }}
        />
      </div>
      <span className="shrink-0 text-sm font-semibold tabular-nums text-slate-300">
        {`${chapterNumber} / ${total}`}
      </span>
    </div>
  );
}
