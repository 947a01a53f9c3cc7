declare module 'asciichart' {
  interface PlotConfig {
    height?: number
    min?: number
    max?: number
    offset?: number
    padding?: string
    colors?: string[]
    format?: (value: number, index: number) => string
  }
  const asciichart: {
    plot(series: number[] | number[][], config?: PlotConfig): string
    blue: string
    green: string
    cyan: string
    magenta: string
    yellow: string
    red: string
    reset: string
  }
  export default asciichart
}
